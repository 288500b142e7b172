package io.vgpu.deviceplugin.core.allocate;
import io.vgpu.deviceplugin.core.hook.HookPaths;
import io.vgpu.deviceplugin.core.hook.HookFiles;
import io.vgpu.deviceplugin.core.cluster.ContainerView;

import io.vgpu.state.model.ContainerDevice;

import java.util.List;

/**
 * The HAMi-core part of a container's answer (spec §2.5): the limit variables {@code libvgpu.so} reads
 * and the mounts that inject it. Pure and thread-safe.
 *
 * <p>Mounts, in this order: the library; the per-container cache directory as {@code H/vgpu}; the
 * lock directory; {@code /etc/ld.so.preload} unless the container sets {@code CUDA_DISABLE_CONTROL}
 * to a Go-true value; the license and validator when the license file exists.
 */
public final class HamiCoreLimits {

    /** Per-device memory limit variable prefix; {@code <i>} is the position in the container's entry. */
    public static final String MEMORY_LIMIT_PREFIX = "CUDA_DEVICE_MEMORY_LIMIT_";
    /** SM limit variable (first device's cores). */
    public static final String SM_LIMIT = "CUDA_DEVICE_SM_LIMIT";
    /** Shared-region file variable. */
    public static final String SHARED_CACHE = "CUDA_DEVICE_MEMORY_SHARED_CACHE";
    /** Container env that keeps {@code /etc/ld.so.preload} out. */
    public static final String DISABLE_CONTROL = "CUDA_DISABLE_CONTROL";

    private HamiCoreLimits() {
    }

    /**
     * Adds the HAMi-core env and mounts for {@code devices} (non-empty) of {@code container}.
     *
     * @param cacheId fresh UUID naming the shared-region file
     */
    public static void addTo(DeviceResponses.Builder response, List<ContainerDevice> devices, String podUid,
                             ContainerView container, AllocateSettings settings, HookFiles files, String cacheId) {
        HookPaths paths = settings.hookPaths();
        for (int i = 0; i < devices.size(); i++) {
            response.env(MEMORY_LIMIT_PREFIX + i, devices.get(i).usedmem() + "m");
        }
        response.env(SM_LIMIT, String.valueOf(devices.get(0).usedcores()));
        response.env(SHARED_CACHE, paths.sharedCache(cacheId));
        if (settings.deviceMemoryScaling() > 1) {
            response.env("CUDA_OVERSUBSCRIBE", "true");
        }
        if (!settings.libCudaLogLevel().isEmpty()) {
            response.env("LIBCUDA_LOG_LEVEL", settings.libCudaLogLevel());
        }
        if (settings.disableCoreLimit()) {
            response.env("GPU_CORE_UTILIZATION_POLICY", "disable");
        }
        String libraryHost = files.versionedLibraryExists() && paths.versionedLibrary() != null
                ? paths.versionedLibrary() : paths.library();
        response.mount(paths.library(), libraryHost, true)
                .mount(paths.vgpuDir(), paths.containerDir(podUid, container.name()), false)
                .mount(HookPaths.LOCK_DIR, HookPaths.LOCK_DIR, false);
        if (!goTrue(container.env().get(DISABLE_CONTROL))) {
            response.mount("/etc/ld.so.preload", paths.preload(), true);
        }
        if (files.licenseExists()) {
            response.mount("/tmp/license", paths.license(), true)
                    .mount("/usr/bin/vgpuvalidator", paths.validator(), true);
        }
    }

    /** Go {@code strconv.ParseBool} true values; anything unparsable counts as false, as in HAMi. */
    static boolean goTrue(String value) {
        if (value == null) {
            return false;
        }
        return switch (value) {
            case "1", "t", "T", "TRUE", "true", "True" -> true;
            default -> false;
        };
    }
}
