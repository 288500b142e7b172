/**
 * Java API of the C/JNI bridge to NVML and to HAMi-core's shared memory region (JDK only).
 *
 * <ul>
 *   <li>NVML: {@link io.vgpu.hamicore.Nvml}, implemented by {@link io.vgpu.hamicore.NativeNvml}
 *       (NVML {@code dlopen}ed at runtime through {@code libvgpuhamicore.so}) and
 *       {@link io.vgpu.hamicore.FakeNvml}; XID health events through
 *       {@link io.vgpu.hamicore.XidEventSet} and {@link io.vgpu.hamicore.XidWatcher}; every NVML
 *       failure is an {@link io.vgpu.hamicore.NvmlException} with NVML's code and function.</li>
 *   <li>Region: {@link io.vgpu.hamicore.SharedRegions} finds, validates and maps
 *       {@link io.vgpu.hamicore.SharedRegion}s (outcomes in {@link io.vgpu.hamicore.RegionLoad});
 *       {@link io.vgpu.hamicore.FakeSharedRegion} builds in-memory ones;
 *       {@link io.vgpu.hamicore.RegionSemaphore} is for tools and tests only.</li>
 * </ul>
 *
 * <p>Every native call blocks the calling thread; keep them off event loops.
 */
package io.vgpu.hamicore;
