package io.vgpu.state.model;

/**
 * Quota state of one resource (e.g. {@code nvidia.com/gpumem}) in one namespace (spec §8.4).
 *
 * @param used     sum of the collapsed grants of the namespace's tracked pods (never negative)
 * @param limit    the {@code limits.<resource>} value of the namespace's ResourceQuota (memory scaled by memoryFactor)
 * @param limitSet whether a ResourceQuota sets the limit; entries created by usage tracking alone are unlimited
 */
public record QuotaLimit(long used, long limit, boolean limitSet) {

    /** An entry that only tracks usage. */
    public static final QuotaLimit UNLIMITED = new QuotaLimit(0, 0, false);

    /** Returns true when {@code amount} more still fits (or nothing is enforced). */
    public boolean admits(long amount) {
        return !limitSet || used + amount <= limit;
    }

    /** Returns this entry with {@code delta} more used, clamped at 0. */
    public QuotaLimit plus(long delta) {
        return new QuotaLimit(Math.max(0, used + delta), limit, limitSet);
    }
}
