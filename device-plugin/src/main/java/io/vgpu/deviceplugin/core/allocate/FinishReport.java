package io.vgpu.deviceplugin.core.allocate;

import io.vgpu.deviceplugin.core.pending.LockReleaseResult;
import java.util.Objects;

/**
 * What finishing a pod's allocation did ({@link AllocationFinisher}), for the adapter to log.
 *
 * @param bindPhase  the {@code hami.io/bind-phase} value written, or "" when none was attempted
 * @param patchError the error of that patch, or "" when it succeeded or was not attempted
 * @param lock       the node-lock release, or null when none was attempted
 */
public record FinishReport(String bindPhase, String patchError, LockReleaseResult lock) {

    /** Nulls become "". */
    public FinishReport {
        bindPhase = Objects.requireNonNullElse(bindPhase, "");
        patchError = Objects.requireNonNullElse(patchError, "");
    }

    /** Nothing was written: more containers are pending (or the pod could not be re-read). */
    public static FinishReport pending() {
        return new FinishReport("", "", null);
    }

    /** True when a lock release was attempted. */
    public boolean releaseAttempted() {
        return lock != null;
    }
}
