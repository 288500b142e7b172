package io.vgpu.hamicore;

/**
 * The MIG mode of one GPU ({@code nvmlDeviceGetMigMode}). GPUs without MIG support report
 * {@link #DISABLED}.
 *
 * @param enabled        MIG is on now
 * @param pendingEnabled MIG will be on after the next GPU reset
 */
public record MigMode(boolean enabled, boolean pendingEnabled) {

    /** MIG off now and after reset; also what a GPU without MIG support reports. */
    public static final MigMode DISABLED = new MigMode(false, false);
}
