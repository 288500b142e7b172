package io.vgpu.gateway.core.health;

/** What {@link HandshakeRule#check} decided: a verdict, or a stamp to write first. */
public sealed interface HandshakeStep permits HandshakeStep.Settled, HandshakeStep.Stamp {

    /**
     * The verdict, nothing to write.
     *
     * @param verdict the result
     */
    record Settled(HealthVerdict verdict) implements HandshakeStep {
    }

    /**
     * The node carries no pending stamp: GET the node live, and if that works merge-patch
     * {@code hami.io/node-handshake: <value>} (a failed PATCH is only logged), then take
     * {@link #afterNodeGet}.
     *
     * @param value the stamp to write, {@code Requesting_<now>}
     */
    record Stamp(String value) implements HandshakeStep {

        /** Healthy either way; an update is needed only when the node could be read (and the patch sent). */
        public HealthVerdict afterNodeGet(boolean nodeRead) {
            return new HealthVerdict(true, nodeRead);
        }
    }
}
