package io.vgpu.deviceplugin.monitor;

import java.nio.file.Path;
import java.util.Objects;

import io.vgpu.deviceplugin.core.monitor.UsageInfo;
import io.vgpu.hamicore.SharedRegion;

/**
 * A container whose HAMi-core region the monitor has mapped (HAMi's {@code ContainerUsage}).
 *
 * @param podUid        pod UID, from the directory name
 * @param containerName container name, from the directory name
 * @param directory     {@code <hook>/vgpu/containers/<podUid>_<containerName>}
 * @param file          the mapped {@code .cache} file
 * @param region        the mapping (released by the garbage collector once forgotten)
 */
record TrackedContainer(String podUid, String containerName, Path directory, Path file, SharedRegion region) {

    public TrackedContainer {
        Objects.requireNonNull(podUid, "podUid");
        Objects.requireNonNull(containerName, "containerName");
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(region, "region");
    }

    /** The region as the monitor's rules see it. */
    public UsageInfo usage() {
        return SharedRegionUsage.of(region);
    }
}
