/*
 * JNI glue for the MIG entry points of io.vgpu.hamicore.NativeBridge: converts types and forwards to
 * vgpu_nvml.c; the loops over profiles and slots live in NativeNvml. Every function blocks for as
 * long as NVML does (instance creation can take a second).
 */
#include "io_vgpu_hamicore_NativeBridge.h"
#include "hamicore_jni.h"

#include <stdint.h>

#define CAPACITY 64u

static jintArray ints_of(JNIEnv *env, const jint *values, jsize n)
{
    jintArray out = (*env)->NewIntArray(env, n);
    if (out != NULL && n > 0) {
        (*env)->SetIntArrayRegion(env, out, 0, n, values);
    }
    return out;
}

JNIEXPORT jlongArray JNICALL Java_io_vgpu_hamicore_NativeBridge_gpuInstanceProfile(JNIEnv *env, jclass cls, jlong handle,
                                                                                  jint index, jint profile)
{
    (void) cls;
    vg_nvml *nv = jni_nvml_of(env, handle);
    vg_gi_profile p;
    if (nv == NULL || jni_failed(env, vg_nvml_gi_profile(nv, (unsigned int) index, (unsigned int) profile, &p))) {
        return NULL;
    }
    jlong values[5] = {(jlong) p.id, (jlong) p.slice_count, (jlong) p.instance_count, (jlong) p.multiprocessor_count,
                       (jlong) p.memory_mib};
    jlongArray out = (*env)->NewLongArray(env, 5);
    if (out != NULL) {
        (*env)->SetLongArrayRegion(env, out, 0, 5, values);
    }
    return out;
}

JNIEXPORT jintArray JNICALL Java_io_vgpu_hamicore_NativeBridge_gpuInstancePlacements(JNIEnv *env, jclass cls, jlong handle,
                                                                                    jint index, jint profile_id)
{
    (void) cls;
    vg_nvml *nv = jni_nvml_of(env, handle);
    vg_placement placements[CAPACITY];
    unsigned int n = 0;
    if (nv == NULL || jni_failed(env, vg_nvml_gi_placements(nv, (unsigned int) index, (unsigned int) profile_id,
                                                            placements, CAPACITY, &n))) {
        return NULL;
    }
    jint flat[2 * CAPACITY];
    for (unsigned int i = 0; i < n; i++) {
        flat[2 * i] = (jint) placements[i].start;
        flat[2 * i + 1] = (jint) placements[i].size;
    }
    return ints_of(env, flat, (jsize) (2 * n));
}

JNIEXPORT void JNICALL Java_io_vgpu_hamicore_NativeBridge_setMigMode(JNIEnv *env, jclass cls, jlong handle, jint index,
                                                                    jboolean enabled)
{
    (void) cls;
    vg_nvml *nv = jni_nvml_of(env, handle);
    if (nv != NULL) {
        jni_failed(env, vg_nvml_set_mig_mode(nv, (unsigned int) index, enabled ? 1u : 0u));
    }
}

JNIEXPORT jint JNICALL Java_io_vgpu_hamicore_NativeBridge_createGpuInstance(JNIEnv *env, jclass cls, jlong handle,
                                                                           jint index, jint profile_id, jint start,
                                                                           jint size)
{
    (void) cls;
    vg_nvml *nv = jni_nvml_of(env, handle);
    vg_placement placement = {(unsigned int) start, (unsigned int) size};
    unsigned int id = 0;
    if (nv == NULL || jni_failed(env, vg_nvml_gi_create(nv, (unsigned int) index, (unsigned int) profile_id, placement, &id))) {
        return -1;
    }
    return (jint) id;
}

JNIEXPORT jint JNICALL Java_io_vgpu_hamicore_NativeBridge_createComputeInstance(JNIEnv *env, jclass cls, jlong handle,
                                                                               jint index, jint gi_id, jint ci_profile)
{
    (void) cls;
    vg_nvml *nv = jni_nvml_of(env, handle);
    unsigned int id = 0;
    if (nv == NULL || jni_failed(env, vg_nvml_ci_create(nv, (unsigned int) index, (unsigned int) gi_id,
                                                        (unsigned int) ci_profile, &id))) {
        return -1;
    }
    return (jint) id;
}

JNIEXPORT void JNICALL Java_io_vgpu_hamicore_NativeBridge_destroyComputeInstance(JNIEnv *env, jclass cls, jlong handle,
                                                                                jint index, jint gi_id, jint ci_id)
{
    (void) cls;
    vg_nvml *nv = jni_nvml_of(env, handle);
    if (nv != NULL) {
        jni_failed(env, vg_nvml_ci_destroy(nv, (unsigned int) index, (unsigned int) gi_id, (unsigned int) ci_id));
    }
}

JNIEXPORT void JNICALL Java_io_vgpu_hamicore_NativeBridge_destroyGpuInstance(JNIEnv *env, jclass cls, jlong handle,
                                                                            jint index, jint gi_id)
{
    (void) cls;
    vg_nvml *nv = jni_nvml_of(env, handle);
    if (nv != NULL) {
        jni_failed(env, vg_nvml_gi_destroy(nv, (unsigned int) index, (unsigned int) gi_id));
    }
}

JNIEXPORT jintArray JNICALL Java_io_vgpu_hamicore_NativeBridge_gpuInstances(JNIEnv *env, jclass cls, jlong handle,
                                                                           jint index, jint profile_id)
{
    (void) cls;
    vg_nvml *nv = jni_nvml_of(env, handle);
    vg_gi gis[CAPACITY];
    unsigned int n = 0;
    if (nv == NULL || jni_failed(env, vg_nvml_gi_list(nv, (unsigned int) index, (unsigned int) profile_id, gis, CAPACITY, &n))) {
        return NULL;
    }
    jint flat[4 * CAPACITY];
    for (unsigned int i = 0; i < n; i++) {
        flat[4 * i] = (jint) gis[i].id;
        flat[4 * i + 1] = (jint) gis[i].profile_id;
        flat[4 * i + 2] = (jint) gis[i].placement.start;
        flat[4 * i + 3] = (jint) gis[i].placement.size;
    }
    return ints_of(env, flat, (jsize) (4 * n));
}

JNIEXPORT jintArray JNICALL Java_io_vgpu_hamicore_NativeBridge_computeInstances(JNIEnv *env, jclass cls, jlong handle,
                                                                               jint index, jint gi_id, jint ci_profile)
{
    (void) cls;
    vg_nvml *nv = jni_nvml_of(env, handle);
    unsigned int ids[CAPACITY];
    unsigned int n = 0;
    if (nv == NULL || jni_failed(env, vg_nvml_ci_list(nv, (unsigned int) index, (unsigned int) gi_id,
                                                      (unsigned int) ci_profile, ids, CAPACITY, &n))) {
        return NULL;
    }
    jint flat[CAPACITY];
    for (unsigned int i = 0; i < n; i++) {
        flat[i] = (jint) ids[i];
    }
    return ints_of(env, flat, (jsize) n);
}

JNIEXPORT jint JNICALL Java_io_vgpu_hamicore_NativeBridge_migDeviceCount(JNIEnv *env, jclass cls, jlong handle, jint index)
{
    (void) cls;
    vg_nvml *nv = jni_nvml_of(env, handle);
    unsigned int count = 0;
    if (nv == NULL || jni_failed(env, vg_nvml_mig_device_count(nv, (unsigned int) index, &count))) {
        return 0;
    }
    return (jint) (count > INT32_MAX ? INT32_MAX : count);
}

JNIEXPORT jbyteArray JNICALL Java_io_vgpu_hamicore_NativeBridge_migDevice(JNIEnv *env, jclass cls, jlong handle, jint index,
                                                                         jint mig_index, jintArray ids)
{
    (void) cls;
    vg_nvml *nv = jni_nvml_of(env, handle);
    if (nv == NULL) {
        return NULL;
    }
    if (ids == NULL || (*env)->GetArrayLength(env, ids) < 2) {
        vg_status s = {VG_NVML_ERROR_INVALID_ARGUMENT, "nvmlDeviceGetMigDeviceHandleByIndex"};
        jni_throw_nvml(env, s, "result array must hold 2 values");
        return NULL;
    }
    vg_mig_device device;
    if (jni_failed(env, vg_nvml_mig_device(nv, (unsigned int) index, (unsigned int) mig_index, &device))) {
        return NULL;
    }
    jint values[2] = {(jint) device.gpu_instance_id, (jint) device.compute_instance_id};
    (*env)->SetIntArrayRegion(env, ids, 0, 2, values);
    return jni_bytes_of(env, device.uuid);
}

JNIEXPORT jint JNICALL Java_io_vgpu_hamicore_NativeBridge_processCount(JNIEnv *env, jclass cls, jlong handle, jint index,
                                                                      jint mig_index)
{
    (void) cls;
    vg_nvml *nv = jni_nvml_of(env, handle);
    unsigned int count = 0;
    if (nv == NULL || jni_failed(env, vg_nvml_process_count(nv, (unsigned int) index, (int) mig_index, &count))) {
        return 0;
    }
    return (jint) (count > INT32_MAX ? INT32_MAX : count);
}

/* ---- topology (NVLink pair scores) ---- */

JNIEXPORT jint JNICALL Java_io_vgpu_hamicore_NativeBridge_topologyCommonAncestor(JNIEnv *env, jclass cls, jlong handle,
                                                                                jint index1, jint index2)
{
    (void) cls;
    vg_nvml *nv = jni_nvml_of(env, handle);
    unsigned int level = 0;
    if (nv == NULL || jni_failed(env, vg_nvml_topology_common_ancestor(nv, (unsigned int) index1, (unsigned int) index2,
                                                                       &level))) {
        return -1;
    }
    return (jint) level;
}

JNIEXPORT jboolean JNICALL Java_io_vgpu_hamicore_NativeBridge_nvLinkActive(JNIEnv *env, jclass cls, jlong handle, jint index,
                                                                          jint link)
{
    (void) cls;
    vg_nvml *nv = jni_nvml_of(env, handle);
    unsigned int active = 0;
    if (nv == NULL || jni_failed(env, vg_nvml_nvlink_state(nv, (unsigned int) index, (unsigned int) link, &active))) {
        return JNI_FALSE;
    }
    return active ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT jbyteArray JNICALL Java_io_vgpu_hamicore_NativeBridge_nvLinkRemoteBusId(JNIEnv *env, jclass cls, jlong handle,
                                                                                 jint index, jint link)
{
    (void) cls;
    vg_nvml *nv = jni_nvml_of(env, handle);
    char buf[VG_NVML_BUS_ID_LEN];
    if (nv == NULL || jni_failed(env, vg_nvml_nvlink_remote_bus_id(nv, (unsigned int) index, (unsigned int) link, buf,
                                                                   sizeof buf))) {
        return NULL;
    }
    return jni_bytes_of(env, buf);
}

JNIEXPORT jint JNICALL Java_io_vgpu_hamicore_NativeBridge_nvLinkRemoteType(JNIEnv *env, jclass cls, jlong handle, jint index,
                                                                          jint link)
{
    (void) cls;
    vg_nvml *nv = jni_nvml_of(env, handle);
    unsigned int type = 0;
    if (nv == NULL || jni_failed(env, vg_nvml_nvlink_remote_type(nv, (unsigned int) index, (unsigned int) link, &type))) {
        return -1;
    }
    return (jint) type;
}
