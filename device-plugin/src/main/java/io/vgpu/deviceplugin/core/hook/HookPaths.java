package io.vgpu.deviceplugin.core.hook;

/**
 * The HAMi-core files under {@code HOOK_PATH} (spec §2.5). Paths are built by string concatenation as
 * HAMi does, so an empty hook path yields {@code /vgpu/...}.
 *
 * @param hookPath   HAMi's {@code HOOK_PATH}
 * @param libVersion suffix of the versioned library; "" when none is installed
 */
public record HookPaths(String hookPath, String libVersion) {

    /** HAMi-core's lock directory ({@code /tmp/vgpulock/lock}), the same path on the host and in the container. */
    public static final String LOCK_DIR = "/tmp/vgpulock";

    /** {@code H/vgpu}. */
    public String vgpuDir() {
        return hookPath + "/vgpu";
    }

    /** {@code H/vgpu/libvgpu.so}: the container path of the library, and its host path when unversioned. */
    public String library() {
        return vgpuDir() + "/libvgpu.so";
    }

    /** {@code H/vgpu/libvgpu.so.<version>}, or null when no version is configured. */
    public String versionedLibrary() {
        return libVersion.isEmpty() ? null : library() + "." + libVersion;
    }

    /** {@code H/vgpu/ld.so.preload}, mounted as {@code /etc/ld.so.preload}. */
    public String preload() {
        return vgpuDir() + "/ld.so.preload";
    }

    /** {@code H/vgpu/license}. */
    public String license() {
        return vgpuDir() + "/license";
    }

    /** {@code H/vgpu/vgpuvalidator}. */
    public String validator() {
        return vgpuDir() + "/vgpuvalidator";
    }

    /** {@code H/vgpu/containers/<podUid>_<container>}: the per-container cache directory the monitor scans. */
    public String containerDir(String podUid, String container) {
        return vgpuDir() + "/containers/" + podUid + "_" + container;
    }

    /** {@code H/vgpu/<uuid>.cache}: the shared-region file as the container sees it. */
    public String sharedCache(String uuid) {
        return vgpuDir() + "/" + uuid + ".cache";
    }
}
