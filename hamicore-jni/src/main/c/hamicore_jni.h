/*
 * Helpers shared by the JNI glue files (hamicore_jni.c, hamicore_jni_mig.c): NVML failures become
 * io.vgpu.hamicore.NvmlException, handles are checked, C values become Java arrays.
 */
#ifndef HAMICORE_JNI_H
#define HAMICORE_JNI_H

#include <jni.h>

#include "vgpu_nvml.h"

/* throws NvmlException(code, function, detail) */
void jni_throw_nvml(JNIEnv *env, vg_status s, const char *detail);
/* 0 on success; otherwise throws and returns 1 */
int jni_failed(JNIEnv *env, vg_status s);
/* the NVML of a handle; throws UNINITIALIZED and returns NULL for a closed (0) handle */
vg_nvml *jni_nvml_of(JNIEnv *env, jlong handle);
/* a NUL-terminated string's bytes (without the NUL) */
jbyteArray jni_bytes_of(JNIEnv *env, const char *text);
/* {a, b} as a Java int[] */
jintArray jni_int_pair(JNIEnv *env, unsigned int a, unsigned int b);

#endif
