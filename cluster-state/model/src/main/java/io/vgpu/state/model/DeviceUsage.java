package io.vgpu.state.model;

import java.util.ArrayList;
import java.util.List;

/**
 * The usage view of one card that Fit and the scores work on (HAMi's {@code DeviceUsage}): the
 * registered capacity plus what the node's tracked pods already hold. Immutable; "adding" usage
 * returns a new value.
 *
 * @param id          GPU UUID
 * @param index       NVML index
 * @param used        allocations (slots) already on the card
 * @param count       split count (max concurrent allocations)
 * @param usedmem     MiB already granted
 * @param totalmem    MiB capacity
 * @param usedcores   SM percent already granted
 * @param totalcore   SM percent capacity (normally 100)
 * @param numa        NUMA node
 * @param type        model name as registered
 * @param health      whether the card may take new work
 * @param mode        {@code hami-core} | {@code mig} | {@code mps} | ""
 * @param migProfiles MIG profiles the card offers (mig mode only)
 * @param migUsed     MIG placements already occupied
 */
public record DeviceUsage(String id, int index, int used, int count, int usedmem, int totalmem, int usedcores,
                          int totalcore, int numa, String type, boolean health, String mode,
                          List<MigProfile> migProfiles, List<MigUse> migUsed) {

    /** Normalises nulls, copies lists. */
    public DeviceUsage {
        id = id == null ? "" : id;
        type = type == null ? "" : type;
        mode = mode == null ? "" : mode;
        migProfiles = migProfiles == null ? List.of() : List.copyOf(migProfiles);
        migUsed = migUsed == null ? List.of() : List.copyOf(migUsed);
    }

    /** The idle usage view of a registered card. */
    public static DeviceUsage idle(GpuDevice d) {
        return new DeviceUsage(d.id(), d.index(), 0, d.count(), 0, d.devmem(), 0, d.devcore(), d.numa(), d.type(),
                d.health(), d.mode(), d.migProfiles(), List.of());
    }

    /** Returns true when the card is partitioned with MIG. */
    public boolean isMig() {
        return "mig".equals(mode);
    }

    /** Returns this card with {@code slots} more allocations, {@code mem} MiB and {@code cores} percent more used. */
    public DeviceUsage plus(int slots, int mem, int cores) {
        return new DeviceUsage(id, index, used + slots, count, usedmem + mem, totalmem, usedcores + cores, totalcore,
                numa, type, health, mode, migProfiles, migUsed);
    }

    /** Returns this card with one more occupied MIG placement. */
    public DeviceUsage withMigUse(MigUse use) {
        List<MigUse> next = new ArrayList<>(migUsed);
        next.add(use);
        return new DeviceUsage(id, index, used, count, usedmem, totalmem, usedcores, totalcore, numa, type, health,
                mode, migProfiles, next);
    }

    /** Returns this card marked healthy or not. */
    public DeviceUsage withHealth(boolean healthy) {
        return new DeviceUsage(id, index, used, count, usedmem, totalmem, usedcores, totalcore, numa, type, healthy,
                mode, migProfiles, migUsed);
    }
}
