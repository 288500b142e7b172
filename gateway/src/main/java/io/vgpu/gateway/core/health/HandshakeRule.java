package io.vgpu.gateway.core.health;

import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.HandshakeCodec;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;

/**
 * HAMi's generic handshake rule ({@code device.CheckHealth}, spec §7.2) over annotation
 * {@code hami.io/node-handshake}. Pure: the clock and the scheduler's local zone are passed in.
 *
 * <pre>
 *  value contains "Requesting"?
 *    ├─ yes: stamp after the first '_' unparsable (or no '_') ─────────► healthy, no update
 *    │       now &lt; stamp + 60 s ─────────────────────────────────────► healthy, no update
 *    │       expired, allocatable count &gt; 0 ───────────────────────────► healthy, no update
 *    │       expired, allocatable count = 0 ───────────────────────────► UNHEALTHY, no update
 *    └─ no (absent or anything else) ─► Stamp("Requesting_&lt;now&gt;") ─► GET node ─┬─ ok: patch ─► healthy, update
 *                                                                            └─ failed ───► healthy, no update
 * </pre>
 */
public final class HandshakeRule {

    /** How long a {@code Requesting} stamp keeps a node healthy on its own. */
    public static final Duration STAMP_VALIDITY = Duration.ofSeconds(60);

    private HandshakeRule() {
    }

    /**
     * Applies the rule.
     *
     * @param handshake        the annotation value, or null when absent
     * @param allocatableCount the node's allocatable {@code nvidia.com/gpu}
     * @param now              the caller's clock
     * @param zone             the scheduler's local zone (stamps are written and read in it)
     */
    public static HandshakeStep check(String handshake, long allocatableCount, Instant now, ZoneId zone) {
        if (!HandshakeCodec.isRequesting(handshake)) {
            return new HandshakeStep.Stamp(HandshakeCodec.requesting(now, zone));
        }
        Decoded<Instant> stamp = HandshakeCodec.requestedAt(handshake, zone);
        boolean pending = !stamp.isOk() || now.isBefore(stamp.value().plus(STAMP_VALIDITY));
        boolean healthy = pending || allocatableCount > 0;
        return new HandshakeStep.Settled(new HealthVerdict(healthy, false));
    }
}
