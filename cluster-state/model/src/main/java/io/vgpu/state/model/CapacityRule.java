package io.vgpu.state.model;

/**
 * The capacity rule: may one more grant of {@code memreq} MiB and {@code coresreq} percent land on a
 * card given its current usage? This is the single definition used both by the scheduling core's Fit
 * (spec §9.4 steps 6 and 11–14, in that order) and by the store's entry processors when they re-check
 * a reservation against the authoritative node state (DESIGN.md §3). Pure and thread-safe.
 */
public final class CapacityRule {

    private CapacityRule() {
    }

    /**
     * Step 6: the card has a free allocation slot.
     *
     * @return {@link FitReason#CardTimeSlicingExhausted} when {@code count <= used}, else null
     */
    public static FitReason slotRejection(DeviceUsage dev) {
        return dev.count() <= dev.used() ? FitReason.CardTimeSlicingExhausted : null;
    }

    /**
     * Steps 11–14 for a grant whose memory and cores are already resolved (percentages applied,
     * cores clamped to 100 by the caller).
     *
     * @return the first failing reason in HAMi's order, or null when the grant fits
     */
    public static FitReason resourceRejection(DeviceUsage dev, int memreq, int coresreq) {
        if ((long) dev.totalmem() - dev.usedmem() < memreq) {
            return FitReason.CardInsufficientMemory;
        }
        if ((long) dev.totalcore() - dev.usedcores() < coresreq) {
            return FitReason.CardInsufficientCore;
        }
        if (dev.totalcore() == 100 && coresreq == 100 && dev.used() > 0) {
            return FitReason.ExclusiveDeviceAllocateConflict;
        }
        if (dev.totalcore() != 0 && dev.usedcores() == dev.totalcore() && coresreq == 0) {
            return FitReason.CardComputeUnitsExhausted;
        }
        return null;
    }

    /**
     * The whole rule: a free slot and room for memory and cores.
     *
     * @return true when one more grant of the given size may land on the card
     */
    public static boolean admits(DeviceUsage dev, int memreq, int coresreq) {
        return slotRejection(dev) == null && resourceRejection(dev, memreq, coresreq) == null;
    }
}
