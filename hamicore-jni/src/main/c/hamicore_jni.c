/*
 * JNI glue for io.vgpu.hamicore.NativeBridge: converts types and forwards to vgpu_nvml.c and
 * vgpu_sem.c; no policy lives here. NVML failures become io.vgpu.hamicore.NvmlException
 * (return code + function name); semaphore calls return errno values to Java.
 * Every function blocks the calling thread for as long as the underlying call does.
 */
#include "io_vgpu_hamicore_NativeBridge.h"
#include "hamicore_jni.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vgpu_nvml.h"
#include "vgpu_sem.h"

#define EXCEPTION_CLASS "io/vgpu/hamicore/NvmlException"

void jni_throw_nvml(JNIEnv *env, vg_status s, const char *detail)
{
    jclass cls = (*env)->FindClass(env, EXCEPTION_CLASS);
    if (cls == NULL) {
        return; /* NoClassDefFoundError is pending */
    }
    jmethodID ctor = (*env)->GetMethodID(env, cls, "<init>", "(ILjava/lang/String;Ljava/lang/String;)V");
    if (ctor == NULL) {
        return;
    }
    jstring function = (*env)->NewStringUTF(env, s.function != NULL ? s.function : "?");
    /* dlerror text may hold arbitrary bytes; keep only printable ASCII so NewStringUTF is safe */
    char clean[512];
    size_t n = 0;
    for (const char *p = detail != NULL ? detail : ""; *p != '\0' && n + 1 < sizeof clean; p++) {
        clean[n++] = (*p >= 0x20 && *p < 0x7f) ? *p : '?';
    }
    clean[n] = '\0';
    jstring text = (*env)->NewStringUTF(env, clean);
    if (function == NULL || text == NULL) {
        return;
    }
    jobject ex = (*env)->NewObject(env, cls, ctor, (jint) s.code, function, text);
    if (ex != NULL) {
        (*env)->Throw(env, (jthrowable) ex);
    }
}

int jni_failed(JNIEnv *env, vg_status s)
{
    if (s.code == VG_NVML_SUCCESS) {
        return 0;
    }
    jni_throw_nvml(env, s, "");
    return 1;
}

vg_nvml *jni_nvml_of(JNIEnv *env, jlong handle)
{
    if (handle == 0) {
        vg_status s = {VG_NVML_ERROR_UNINITIALIZED, "nvmlInit_v2"};
        jni_throw_nvml(env, s, "NVML handle is closed");
        return NULL;
    }
    return (vg_nvml *) (intptr_t) handle;
}

jbyteArray jni_bytes_of(JNIEnv *env, const char *text)
{
    jsize len = (jsize) strlen(text);
    jbyteArray out = (*env)->NewByteArray(env, len);
    if (out != NULL && len > 0) {
        (*env)->SetByteArrayRegion(env, out, 0, len, (const jbyte *) text);
    }
    return out;
}

/* a Java String as a malloc'ed C string (modified UTF-8); NULL for a null String */
static char *c_string(JNIEnv *env, jstring s)
{
    if (s == NULL) {
        return NULL;
    }
    const char *chars = (*env)->GetStringUTFChars(env, s, NULL);
    if (chars == NULL) {
        return NULL;
    }
    char *copy = strdup(chars);
    (*env)->ReleaseStringUTFChars(env, s, chars);
    return copy;
}

JNIEXPORT jlong JNICALL Java_io_vgpu_hamicore_NativeBridge_nvmlOpen(JNIEnv *env, jclass cls, jstring library)
{
    (void) cls;
    char *path = c_string(env, library);
    if (library != NULL && path == NULL) {
        return 0; /* OutOfMemoryError pending */
    }
    char detail[512];
    vg_nvml *nv = NULL;
    vg_status s = vg_nvml_open(path, &nv, detail, sizeof detail);
    free(path);
    if (s.code != VG_NVML_SUCCESS) {
        jni_throw_nvml(env, s, detail);
        return 0;
    }
    return (jlong) (intptr_t) nv;
}

JNIEXPORT void JNICALL Java_io_vgpu_hamicore_NativeBridge_nvmlClose(JNIEnv *env, jclass cls, jlong handle)
{
    (void) cls;
    if (handle == 0) {
        return;
    }
    jni_failed(env, vg_nvml_close((vg_nvml *) (intptr_t) handle));
}

JNIEXPORT jint JNICALL Java_io_vgpu_hamicore_NativeBridge_deviceCount(JNIEnv *env, jclass cls, jlong handle)
{
    (void) cls;
    vg_nvml *nv = jni_nvml_of(env, handle);
    unsigned int count = 0;
    if (nv == NULL || jni_failed(env, vg_nvml_device_count(nv, &count))) {
        return 0;
    }
    return (jint) (count > INT32_MAX ? INT32_MAX : count);
}

typedef vg_status (*string_getter)(vg_nvml *, unsigned int, char *, size_t);

static jbyteArray device_string(JNIEnv *env, jlong handle, jint index, string_getter getter)
{
    vg_nvml *nv = jni_nvml_of(env, handle);
    char buf[VG_NVML_UUID_LEN > VG_NVML_NAME_LEN ? VG_NVML_UUID_LEN : VG_NVML_NAME_LEN];
    if (nv == NULL || jni_failed(env, getter(nv, (unsigned int) index, buf, sizeof buf))) {
        return NULL;
    }
    return jni_bytes_of(env, buf);
}

JNIEXPORT jbyteArray JNICALL Java_io_vgpu_hamicore_NativeBridge_deviceUuid(JNIEnv *env, jclass cls, jlong handle, jint index)
{
    (void) cls;
    return device_string(env, handle, index, vg_nvml_device_uuid);
}

JNIEXPORT jbyteArray JNICALL Java_io_vgpu_hamicore_NativeBridge_deviceName(JNIEnv *env, jclass cls, jlong handle, jint index)
{
    (void) cls;
    return device_string(env, handle, index, vg_nvml_device_name);
}

JNIEXPORT jbyteArray JNICALL Java_io_vgpu_hamicore_NativeBridge_devicePciBusId(JNIEnv *env, jclass cls, jlong handle, jint index)
{
    (void) cls;
    return device_string(env, handle, index, vg_nvml_device_pci_bus_id);
}

JNIEXPORT jlongArray JNICALL Java_io_vgpu_hamicore_NativeBridge_deviceMemory(JNIEnv *env, jclass cls, jlong handle, jint index)
{
    (void) cls;
    vg_nvml *nv = jni_nvml_of(env, handle);
    vg_memory memory;
    if (nv == NULL || jni_failed(env, vg_nvml_device_memory(nv, (unsigned int) index, &memory))) {
        return NULL;
    }
    jlong values[3] = {(jlong) memory.total, (jlong) memory.free, (jlong) memory.used};
    jlongArray out = (*env)->NewLongArray(env, 3);
    if (out != NULL) {
        (*env)->SetLongArrayRegion(env, out, 0, 3, values);
    }
    return out;
}

jintArray jni_int_pair(JNIEnv *env, unsigned int a, unsigned int b)
{
    jint values[2] = {(jint) a, (jint) b};
    jintArray out = (*env)->NewIntArray(env, 2);
    if (out != NULL) {
        (*env)->SetIntArrayRegion(env, out, 0, 2, values);
    }
    return out;
}

JNIEXPORT jintArray JNICALL Java_io_vgpu_hamicore_NativeBridge_deviceUtilization(JNIEnv *env, jclass cls, jlong handle, jint index)
{
    (void) cls;
    vg_nvml *nv = jni_nvml_of(env, handle);
    unsigned int gpu = 0, memory = 0;
    if (nv == NULL || jni_failed(env, vg_nvml_device_utilization(nv, (unsigned int) index, &gpu, &memory))) {
        return NULL;
    }
    return jni_int_pair(env, gpu, memory);
}

JNIEXPORT jintArray JNICALL Java_io_vgpu_hamicore_NativeBridge_deviceMigMode(JNIEnv *env, jclass cls, jlong handle, jint index)
{
    (void) cls;
    vg_nvml *nv = jni_nvml_of(env, handle);
    unsigned int current = 0, pending = 0;
    if (nv == NULL || jni_failed(env, vg_nvml_device_mig_mode(nv, (unsigned int) index, &current, &pending))) {
        return NULL;
    }
    return jni_int_pair(env, current, pending);
}

typedef vg_status (*uint_getter)(vg_nvml *, unsigned int, unsigned int *);

/* an unsigned NVML value as a Java int: NVML_DEVICE_ARCH_UNKNOWN (0xffffffff) arrives as -1 */
static jint device_uint(JNIEnv *env, jlong handle, jint index, uint_getter getter)
{
    vg_nvml *nv = jni_nvml_of(env, handle);
    unsigned int value = 0;
    if (nv == NULL || jni_failed(env, getter(nv, (unsigned int) index, &value))) {
        return 0;
    }
    return (jint) value;
}

JNIEXPORT jint JNICALL Java_io_vgpu_hamicore_NativeBridge_deviceMinorNumber(JNIEnv *env, jclass cls, jlong handle, jint index)
{
    (void) cls;
    return device_uint(env, handle, index, vg_nvml_device_minor_number);
}

JNIEXPORT jint JNICALL Java_io_vgpu_hamicore_NativeBridge_deviceArchitecture(JNIEnv *env, jclass cls, jlong handle, jint index)
{
    (void) cls;
    return device_uint(env, handle, index, vg_nvml_device_architecture);
}

JNIEXPORT jint JNICALL Java_io_vgpu_hamicore_NativeBridge_deviceBrand(JNIEnv *env, jclass cls, jlong handle, jint index)
{
    (void) cls;
    return device_uint(env, handle, index, vg_nvml_device_brand);
}

JNIEXPORT jintArray JNICALL Java_io_vgpu_hamicore_NativeBridge_deviceCudaComputeCapability(JNIEnv *env, jclass cls, jlong handle,
                                                                                          jint index)
{
    (void) cls;
    vg_nvml *nv = jni_nvml_of(env, handle);
    int major = 0, minor = 0;
    if (nv == NULL || jni_failed(env, vg_nvml_device_cuda_compute_capability(nv, (unsigned int) index, &major, &minor))) {
        return NULL;
    }
    return jni_int_pair(env, (unsigned int) major, (unsigned int) minor);
}

JNIEXPORT jbyteArray JNICALL Java_io_vgpu_hamicore_NativeBridge_systemDriverVersion(JNIEnv *env, jclass cls, jlong handle)
{
    (void) cls;
    vg_nvml *nv = jni_nvml_of(env, handle);
    char buf[VG_NVML_DRIVER_VERSION_LEN];
    if (nv == NULL || jni_failed(env, vg_nvml_system_driver_version(nv, buf, sizeof buf))) {
        return NULL;
    }
    return jni_bytes_of(env, buf);
}

JNIEXPORT jint JNICALL Java_io_vgpu_hamicore_NativeBridge_systemCudaDriverVersion(JNIEnv *env, jclass cls, jlong handle)
{
    (void) cls;
    vg_nvml *nv = jni_nvml_of(env, handle);
    int version = 0;
    if (nv == NULL || jni_failed(env, vg_nvml_system_cuda_driver_version(nv, &version))) {
        return 0;
    }
    return (jint) version;
}

JNIEXPORT jstring JNICALL Java_io_vgpu_hamicore_NativeBridge_architectureName(JNIEnv *env, jclass cls, jint architecture)
{
    (void) cls;
    return (*env)->NewStringUTF(env, vg_nvml_architecture_name((unsigned int) architecture));
}

JNIEXPORT jstring JNICALL Java_io_vgpu_hamicore_NativeBridge_brandName(JNIEnv *env, jclass cls, jint brand)
{
    (void) cls;
    return (*env)->NewStringUTF(env, vg_nvml_brand_name((unsigned int) brand));
}

JNIEXPORT jlong JNICALL Java_io_vgpu_hamicore_NativeBridge_eventSetCreate(JNIEnv *env, jclass cls, jlong handle)
{
    (void) cls;
    vg_nvml *nv = jni_nvml_of(env, handle);
    vg_nvml_event_set *set = NULL;
    if (nv == NULL || jni_failed(env, vg_nvml_event_set_create(nv, &set))) {
        return 0;
    }
    return (jlong) (intptr_t) set;
}

JNIEXPORT void JNICALL Java_io_vgpu_hamicore_NativeBridge_eventRegisterXid(JNIEnv *env, jclass cls, jlong handle, jlong set, jint index)
{
    (void) cls;
    vg_nvml *nv = jni_nvml_of(env, handle);
    if (nv != NULL) {
        jni_failed(env, vg_nvml_event_register_xid(nv, (vg_nvml_event_set *) (intptr_t) set, (unsigned int) index));
    }
}

JNIEXPORT jbyteArray JNICALL Java_io_vgpu_hamicore_NativeBridge_eventWait(JNIEnv *env, jclass cls, jlong handle, jlong set,
                                                                         jint timeout_ms, jlongArray out)
{
    (void) cls;
    vg_nvml *nv = jni_nvml_of(env, handle);
    if (nv == NULL) {
        return NULL;
    }
    if (out == NULL || (*env)->GetArrayLength(env, out) < 4) {
        vg_status s = {VG_NVML_ERROR_INVALID_ARGUMENT, "nvmlEventSetWait_v2"};
        jni_throw_nvml(env, s, "result array must hold 4 values");
        return NULL;
    }
    vg_xid_event event;
    vg_status s = vg_nvml_event_wait(nv, (vg_nvml_event_set *) (intptr_t) set,
                                     (unsigned int) (timeout_ms < 0 ? 0 : timeout_ms), &event);
    if (s.code == VG_NVML_ERROR_TIMEOUT) {
        return NULL;
    }
    if (jni_failed(env, s)) {
        return NULL;
    }
    jlong values[4] = {(jlong) event.event_type, (jlong) event.event_data,
                       (jlong) event.gpu_instance_id, (jlong) event.compute_instance_id};
    (*env)->SetLongArrayRegion(env, out, 0, 4, values);
    return jni_bytes_of(env, event.uuid);
}

JNIEXPORT void JNICALL Java_io_vgpu_hamicore_NativeBridge_eventSetFree(JNIEnv *env, jclass cls, jlong handle, jlong set)
{
    (void) cls;
    vg_nvml *nv = jni_nvml_of(env, handle);
    if (nv != NULL && set != 0) {
        jni_failed(env, vg_nvml_event_set_free(nv, (vg_nvml_event_set *) (intptr_t) set));
    }
}

JNIEXPORT jint JNICALL Java_io_vgpu_hamicore_NativeBridge_numaNode(JNIEnv *env, jclass cls, jstring sysfs_root, jstring bus_id)
{
    (void) cls;
    char *root = c_string(env, sysfs_root);
    char *bus = c_string(env, bus_id);
    int node = bus != NULL ? vg_numa_node(root, bus) : 0;
    free(root);
    free(bus);
    return (jint) node;
}

JNIEXPORT jstring JNICALL Java_io_vgpu_hamicore_NativeBridge_sysfsPciName(JNIEnv *env, jclass cls, jstring bus_id)
{
    (void) cls;
    char *bus = c_string(env, bus_id);
    if (bus == NULL) {
        return NULL;
    }
    char name[64];
    vg_pci_sysfs_name(bus, name, sizeof name);
    free(bus);
    for (char *p = name; *p != '\0'; p++) {
        if (*p < 0x20 || *p >= 0x7f) {
            *p = '?';
        }
    }
    return (*env)->NewStringUTF(env, name);
}

/* the semaphore at offset inside a direct buffer, or NULL when it would not fit or is misaligned */
static void *sem_at(JNIEnv *env, jobject buffer, jlong offset)
{
    if (buffer == NULL) {
        return NULL;
    }
    char *base = (char *) (*env)->GetDirectBufferAddress(env, buffer);
    jlong capacity = (*env)->GetDirectBufferCapacity(env, buffer);
    if (base == NULL || capacity < (jlong) vg_sem_size() || offset < 0
        || offset > capacity - (jlong) vg_sem_size()) {
        return NULL;
    }
    char *addr = base + offset;
    if (((uintptr_t) addr) % vg_sem_align() != 0) {
        return NULL;
    }
    return addr;
}

JNIEXPORT jint JNICALL Java_io_vgpu_hamicore_NativeBridge_semInit(JNIEnv *env, jclass cls, jobject buffer, jlong offset, jint value)
{
    (void) cls;
    void *addr = sem_at(env, buffer, offset);
    return addr == NULL || value < 0 ? EINVAL : vg_sem_init(addr, (unsigned int) value);
}

JNIEXPORT jint JNICALL Java_io_vgpu_hamicore_NativeBridge_semTimedWait(JNIEnv *env, jclass cls, jobject buffer, jlong offset,
                                                                      jlong timeout_ms)
{
    (void) cls;
    void *addr = sem_at(env, buffer, offset);
    return addr == NULL ? EINVAL : vg_sem_timed_wait(addr, (long long) timeout_ms);
}

JNIEXPORT jint JNICALL Java_io_vgpu_hamicore_NativeBridge_semPost(JNIEnv *env, jclass cls, jobject buffer, jlong offset)
{
    (void) cls;
    void *addr = sem_at(env, buffer, offset);
    return addr == NULL ? EINVAL : vg_sem_post(addr);
}

JNIEXPORT jint JNICALL Java_io_vgpu_hamicore_NativeBridge_semValue(JNIEnv *env, jclass cls, jobject buffer, jlong offset,
                                                                  jintArray out)
{
    (void) cls;
    void *addr = sem_at(env, buffer, offset);
    if (addr == NULL || out == NULL || (*env)->GetArrayLength(env, out) < 1) {
        return EINVAL;
    }
    int value = 0;
    int rc = vg_sem_value(addr, &value);
    if (rc == 0) {
        jint v = (jint) value;
        (*env)->SetIntArrayRegion(env, out, 0, 1, &v);
    }
    return rc;
}

JNIEXPORT jintArray JNICALL Java_io_vgpu_hamicore_NativeBridge_platformFacts(JNIEnv *env, jclass cls)
{
    (void) cls;
    const uint16_t probe = 1;
    jint values[6] = {
        (jint) vg_sem_size(),
        (jint) vg_sem_align(),
        (jint) sizeof(size_t),
        (jint) ATOMIC_LONG_LOCK_FREE,
        (jint) ATOMIC_INT_LOCK_FREE,
        (jint) (*(const uint8_t *) &probe == 1),
    };
    jintArray out = (*env)->NewIntArray(env, 6);
    if (out != NULL) {
        (*env)->SetIntArrayRegion(env, out, 0, 6, values);
    }
    return out;
}
