package io.vgpu.state.model;

/**
 * One pod's charge against its namespace's quota: the collapsed totals of its allocation.
 *
 * @param mem            MiB
 * @param cores          SM percent
 * @param deadlineMillis when an unconfirmed charge expires; {@link #NO_DEADLINE} once the pod is bound
 */
public record QuotaCharge(long mem, long cores, long deadlineMillis) {

    /** The deadline of a bound pod's charge: never expires. */
    public static final long NO_DEADLINE = Long.MAX_VALUE;

    /** Returns true when the charge belongs to a bound pod. */
    public boolean isBound() {
        return deadlineMillis == NO_DEADLINE;
    }

    /** Returns true when the charge is an unconfirmed one whose deadline has passed. */
    public boolean expiredAt(long nowMillis) {
        return !isBound() && deadlineMillis <= nowMillis;
    }
}
