package io.vgpu.deviceplugin.core.pending;

/** How an owner-checked node-lock release ended ({@link NodeLockReleaser}). */
public sealed interface LockReleaseResult
        permits LockReleaseResult.Removed, LockReleaseResult.Left, LockReleaseResult.Failed {

    /** True when the lock annotation was removed by this release. */
    default boolean removed() {
        return this instanceof Removed;
    }

    /** The lock was removed. */
    record Removed() implements LockReleaseResult {
    }

    /**
     * Nothing to remove (no lock, or another pod's lock): a successful release.
     *
     * @param reason {@link LockRelease.Decision#NOT_LOCKED} or {@link LockRelease.Decision#NOT_OWNER}
     */
    record Left(LockRelease.Decision reason) implements LockReleaseResult {
    }

    /**
     * The release failed (node missing, API errors until the attempts ran out); the lock expires on
     * the scheduler side.
     *
     * @param message why
     */
    record Failed(String message) implements LockReleaseResult {
    }
}
