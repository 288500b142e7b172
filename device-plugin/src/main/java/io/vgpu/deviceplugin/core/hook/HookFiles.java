package io.vgpu.deviceplugin.core.hook;

/**
 * Which optional HAMi-core files exist on the host (checked once per {@code Allocate}).
 *
 * @param versionedLibraryExists {@link HookPaths#versionedLibrary()} exists
 * @param licenseExists          {@link HookPaths#license()} exists
 */
public record HookFiles(boolean versionedLibraryExists, boolean licenseExists) {

    /** Neither file. */
    public static HookFiles none() {
        return new HookFiles(false, false);
    }
}
