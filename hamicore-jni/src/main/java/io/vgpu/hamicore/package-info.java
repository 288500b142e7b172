/** Java API of the C/JNI bridge to NVML and the HAMi-core shared region. Filled by the node-side issue. */
package io.vgpu.hamicore;
