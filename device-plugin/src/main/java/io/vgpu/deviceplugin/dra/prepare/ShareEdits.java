package io.vgpu.deviceplugin.dra.prepare;

import io.vgpu.deviceplugin.cdi.ContainerEdits;
import io.vgpu.deviceplugin.cdi.DeviceNode;
import io.vgpu.deviceplugin.cdi.Mount;
import io.vgpu.deviceplugin.core.allocate.DeviceResponses;
import io.vgpu.deviceplugin.core.allocate.HamiCoreLimits;
import io.vgpu.deviceplugin.core.hook.HookFiles;
import io.vgpu.deviceplugin.core.hook.HookPaths;
import io.vgpu.state.dra.CorePolicy;
import io.vgpu.state.dra.VgpuConfig;

import java.util.List;

/**
 * The CDI edits of one GPU of one request: what the device plugin plus the NVIDIA runtime give the
 * same share in device-plugin mode (spec/hami-deviceplugin-spec.md §2.4, §2.5), with the limits
 * indexed by the GPU's position {@code i} among the request's GPUs in PCI order, the order in which
 * HAMi-core's NVML numbers them inside the container.
 *
 * <pre>
 *  env     NVIDIA_VISIBLE_DEVICES=&lt;the request's UUIDs, PCI order&gt;
 *          CUDA_DEVICE_MEMORY_LIMIT_i=&lt;MiB, rounded up&gt;m   CUDA_DEVICE_SM_LIMIT_i=&lt;cores&gt;
 *          CUDA_DEVICE_MEMORY_SHARED_CACHE=H/vgpu/claims/&lt;uid&gt;/&lt;request&gt;.cache
 *          [CUDA_OVERSUBSCRIBE=true] [LIBCUDA_LOG_LEVEL] [GPU_CORE_UTILIZATION_POLICY] [CUDA_TASK_PRIORITY]
 *  nodes   /dev/nvidia&lt;minor&gt;
 *  mounts  H/vgpu/libvgpu.so (ro; the versioned file when present)   H/vgpu/claims/&lt;uid&gt; (rw)
 *          /tmp/vgpulock (rw)   /etc/ld.so.preload ← H/vgpu/ld.so.preload (ro)   [license, validator (ro)]
 * </pre>
 *
 * Every GPU of a request carries the request-wide entries too: the runtime applies the edits of all
 * the container's devices, and equal entries (same variable, same mount target) collapse. An
 * admin-access result gets the device node and {@code NVIDIA_VISIBLE_DEVICES} only: it monitors,
 * HAMi-core does not limit it. Pure.
 */
final class ShareEdits {

    static final String TASK_PRIORITY = "CUDA_TASK_PRIORITY";
    static final String CORE_POLICY = "GPU_CORE_UTILIZATION_POLICY";
    static final String SM_LIMIT_PREFIX = HamiCoreLimits.SM_LIMIT + "_";

    private ShareEdits() {
    }

    /**
     * @param position    {@code i}: the GPU's place among the request's GPUs in PCI order
     * @param visible     the request's GPU UUIDs in PCI order
     * @param memoryBytes the share's memory
     * @param cores       the share's SM percent (0 = no limit)
     * @param cacheFile   the request's shared-region file (container path)
     */
    static ContainerEdits limited(PrepareSettings settings, HookFiles files, String claimDir, NodeGpu gpu, int position,
                                  List<String> visible, long memoryBytes, long cores, String cacheFile, VgpuConfig config) {
        HookPaths paths = settings.hookPaths();
        ContainerEdits.Builder out = ContainerEdits.builder()
                .env(DeviceResponses.VISIBLE_DEVICES, String.join(",", visible))
                .env(HamiCoreLimits.MEMORY_LIMIT_PREFIX + position, Mib.ceil(memoryBytes) + "m")
                .env(SM_LIMIT_PREFIX + position, Long.toString(cores))
                .env(HamiCoreLimits.SHARED_CACHE, cacheFile);
        if (settings.oversubscribe()) {
            out.env("CUDA_OVERSUBSCRIBE", "true");
        }
        if (!settings.libCudaLogLevel().isEmpty()) {
            out.env("LIBCUDA_LOG_LEVEL", settings.libCudaLogLevel());
        }
        CorePolicy policy = settings.disableCoreLimit() ? CorePolicy.DISABLE
                : config.coreUtilizationPolicy().orElse(CorePolicy.DEFAULT);
        if (policy != CorePolicy.DEFAULT) {
            out.env(CORE_POLICY, policy.wire());
        }
        config.taskPriority().ifPresent(p -> out.env(TASK_PRIORITY, Integer.toString(p)));
        String library = files.versionedLibraryExists() && paths.versionedLibrary() != null
                ? paths.versionedLibrary() : paths.library();
        out.deviceNode(DeviceNode.of(gpu.deviceNode()))
                .mount(Mount.bind(library, paths.library(), true))
                .mount(Mount.bind(claimDir, claimDir, false))
                .mount(Mount.bind(HookPaths.LOCK_DIR, HookPaths.LOCK_DIR, false))
                .mount(Mount.bind(paths.preload(), "/etc/ld.so.preload", true));
        if (files.licenseExists()) {
            out.mount(Mount.bind(paths.license(), "/tmp/license", true))
                    .mount(Mount.bind(paths.validator(), "/usr/bin/vgpuvalidator", true));
        }
        return out.build();
    }

    /** Admin access: the GPU, unlimited and without HAMi-core. */
    static ContainerEdits adminAccess(NodeGpu gpu, List<String> visible) {
        return ContainerEdits.builder()
                .env(DeviceResponses.VISIBLE_DEVICES, String.join(",", visible))
                .deviceNode(DeviceNode.of(gpu.deviceNode()))
                .build();
    }
}
