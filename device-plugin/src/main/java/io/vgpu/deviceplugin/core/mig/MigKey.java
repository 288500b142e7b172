package io.vgpu.deviceplugin.core.mig;

import io.vgpu.state.model.MigAllocation;
import io.vgpu.state.model.MigPlacement;

import java.util.Objects;

/**
 * What identifies one dynamic-MIG instance: the physical GPU, the profile and the exact placement the
 * scheduler reserved. Two reservations with the same key are the same instance (a retried
 * {@code Allocate} gets the instance it already has), and a managed instance whose key no live pod
 * reserves any more is reclaimed.
 *
 * @param gpuUuid   the physical GPU
 * @param profile   the MIG profile name, e.g. {@code 1g.10gb}
 * @param placement the reserved slices
 */
public record MigKey(String gpuUuid, String profile, MigPlacement placement) {

    /** Requires every part. */
    public MigKey {
        Objects.requireNonNull(gpuUuid, "gpuUuid");
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(placement, "placement");
    }

    /** The key of a scheduler reservation. */
    public static MigKey of(MigAllocation reservation) {
        return new MigKey(reservation.gpuUuid(), reservation.profile(), reservation.placement());
    }

    @Override
    public String toString() {
        return gpuUuid + "/" + profile + "@" + placement.start() + "+" + placement.size();
    }
}
