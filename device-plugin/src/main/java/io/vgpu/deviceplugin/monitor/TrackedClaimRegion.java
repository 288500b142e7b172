package io.vgpu.deviceplugin.monitor;

import java.nio.file.Path;
import java.util.Objects;

import io.vgpu.deviceplugin.core.monitor.UsageInfo;
import io.vgpu.hamicore.SharedRegion;

/**
 * The HAMi-core region of one DRA claim request that the monitor has mapped.
 *
 * @param claimUid the claim's UID (its directory {@code H/vgpu/claims/<uid>})
 * @param request  the request (the file {@code <request>.cache})
 * @param file     the mapped file
 * @param region   the mapping
 */
public record TrackedClaimRegion(String claimUid, String request, Path file, SharedRegion region) {

    public TrackedClaimRegion {
        Objects.requireNonNull(claimUid, "claimUid");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(region, "region");
    }

    /** The region as the monitor's rules see it. */
    public UsageInfo usage() {
        return SharedRegionUsage.of(region);
    }
}
