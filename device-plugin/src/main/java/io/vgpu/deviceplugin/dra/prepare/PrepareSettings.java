package io.vgpu.deviceplugin.dra.prepare;

import io.vgpu.deviceplugin.cdi.DriverLibraries;
import io.vgpu.deviceplugin.core.hook.HookPaths;
import io.vgpu.deviceplugin.core.register.NodeSettings;
import io.vgpu.deviceplugin.core.register.NvidiaSettings;

import java.util.Objects;

/**
 * What shapes a prepared claim apart from the claim itself, fixed for one start of the kubelet plugin.
 *
 * @param nodeName         this node: the only pool this driver serves
 * @param hookPaths        HAMi-core's files under {@code HOOK_PATH} (library, preload file, license)
 * @param libCudaLogLevel  {@code LIBCUDA_LOG_LEVEL} for every share; "" leaves it out
 * @param oversubscribe    adds {@code CUDA_OVERSUBSCRIBE=true} (node memory scaling above 1, as HAMi)
 * @param disableCoreLimit the node's {@code disableCoreLimit}: {@code GPU_CORE_UTILIZATION_POLICY=disable}
 *                         for every share, whatever the claim's config says (as in device-plugin mode,
 *                         where the plugin's variable overrides the webhook's)
 * @param libraries        how containers get the driver libraries
 */
public record PrepareSettings(String nodeName, HookPaths hookPaths, String libCudaLogLevel, boolean oversubscribe,
                              boolean disableCoreLimit, DriverLibraries.Mode libraries) {

    /** Requires the names. */
    public PrepareSettings {
        Objects.requireNonNull(nodeName, "nodeName");
        Objects.requireNonNull(hookPaths, "hookPaths");
        libCudaLogLevel = Objects.requireNonNullElse(libCudaLogLevel, "");
        Objects.requireNonNull(libraries, "libraries");
    }

    /** The settings of a node's effective configuration. */
    public static PrepareSettings of(String nodeName, String hookPath, String libVersion, NodeSettings node,
                                     DriverLibraries.Mode libraries) {
        NvidiaSettings n = node.nvidia();
        return new PrepareSettings(nodeName, new HookPaths(hookPath, libVersion), n.libCudaLogLevel(),
                n.deviceMemoryScaling() > 1, n.disableCoreLimit(), libraries);
    }

    /** {@code H/vgpu/claims/<uid>}: the claim's HAMi-core cache directory, the same path on the host and in the container. */
    public String claimDir(String claimUid) {
        return hookPaths.vgpuDir() + "/claims/" + claimUid;
    }
}
