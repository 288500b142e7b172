package io.vgpu.hamicore;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where {@link NativeNvml} finds NVML and sysfs.
 *
 * @param libraryPath the NVML shared library given to {@code dlopen}: a bare soname searched by
 *                    the dynamic linker, or a path (e.g. under a driver root mounted into the
 *                    container); default {@value #DEFAULT_LIBRARY}
 * @param sysfsRoot   the sysfs mount used for NUMA lookups; default {@code /sys}
 */
public record NvmlConfig(String libraryPath, Path sysfsRoot) {

    public static final String DEFAULT_LIBRARY = "libnvidia-ml.so.1";
    public static final Path DEFAULT_SYSFS = Path.of("/sys");

    public NvmlConfig {
        Objects.requireNonNull(libraryPath, "libraryPath");
        Objects.requireNonNull(sysfsRoot, "sysfsRoot");
        if (libraryPath.isBlank()) {
            throw new IllegalArgumentException("NVML library path is blank");
        }
    }

    /** {@value #DEFAULT_LIBRARY} and {@code /sys}. */
    public static NvmlConfig defaults() {
        return new NvmlConfig(DEFAULT_LIBRARY, DEFAULT_SYSFS);
    }

    public NvmlConfig withLibrary(String path) {
        return new NvmlConfig(path, sysfsRoot);
    }

    public NvmlConfig withSysfsRoot(Path root) {
        return new NvmlConfig(libraryPath, root);
    }
}
