package io.vgpu.deviceplugin.health;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Whether and when a GPU marked unhealthy may be advertised healthy again (a deviation from HAMi, off
 * by default): only marks from XIDs outside {@link #fatalXids()} (and NVML event-wait errors) are
 * recoverable; such a GPU comes back once NVML has answered sound probes and no new XID arrived for
 * {@link #quietPeriod()}. Fatal XIDs (a GPU that needs a reset) never come back before a restart.
 *
 * @param enabled       {@code VGPU_HEALTH_RECOVERY}, default false (HAMi: no way back)
 * @param quietPeriod   {@code VGPU_HEALTH_RECOVERY_QUIET}, default 5 min
 * @param probeInterval {@code VGPU_HEALTH_PROBE_INTERVAL}, default 30 s
 * @param fatalXids     {@code VGPU_HEALTH_FATAL_XIDS}, default {@link #DEFAULT_FATAL_XIDS}
 */
public record HealthRecovery(boolean enabled, Duration quietPeriod, Duration probeInterval, SortedSet<Long> fatalXids) {

    /**
     * XIDs after which NVIDIA's XID catalogue calls for a GPU reset: 48 double-bit ECC, 62 internal
     * micro-controller halt, 64 ECC row-remapping failure, 74 NVLink error, 79 GPU fallen off the bus,
     * 95 uncontained ECC error, 119/120 GSP errors.
     */
    public static final List<Long> DEFAULT_FATAL_XIDS = List.of(48L, 62L, 64L, 74L, 79L, 95L, 119L, 120L);

    /** HAMi's behaviour: nothing recovers. */
    public static final HealthRecovery OFF = new HealthRecovery(false, Duration.ofMinutes(5), Duration.ofSeconds(30),
            new TreeSet<>(DEFAULT_FATAL_XIDS));

    /** Copies; requires positive durations. */
    public HealthRecovery {
        Objects.requireNonNull(quietPeriod, "quietPeriod");
        Objects.requireNonNull(probeInterval, "probeInterval");
        if (quietPeriod.isNegative() || probeInterval.isZero() || probeInterval.isNegative()) {
            throw new IllegalArgumentException("the quiet period must not be negative and the probe interval must be positive");
        }
        fatalXids = new TreeSet<>(fatalXids);
    }

    /** The mark an XID critical error leaves. */
    public HealthCause forXid(long xid) {
        return new HealthCause("XID " + xid + (fatalXids.contains(xid) ? " (fatal)" : ""), enabled && !fatalXids.contains(xid));
    }

    /** The mark an NVML event-wait error leaves on every GPU (transient as far as anyone can tell). */
    public HealthCause forWaitError(String message) {
        return new HealthCause("NVML event wait failed: " + message, enabled);
    }

    /** The fatal XIDs, for logs. */
    public Set<Long> fatal() {
        return fatalXids;
    }
}
