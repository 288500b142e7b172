package io.vgpu.state.codec;

import java.time.Instant;
import java.time.ZoneId;

/**
 * The scheduler's handshake stamp on annotation {@code hami.io/node-handshake} (spec §6.1, §7.2):
 * {@code Requesting_<time>} with the time in Go layout {@code 2006-01-02 15:04:05} in the scheduler's
 * local zone, e.g. {@code Requesting_2026-08-01 14:00:00}. Pure and thread-safe.
 */
public final class HandshakeCodec {

    /** The word that marks a stamp written by the scheduler. */
    public static final String REQUESTING = "Requesting";

    private HandshakeCodec() {
    }

    /** The stamp the scheduler writes at {@code now}, formatted in {@code zone}. */
    public static String requesting(Instant now, ZoneId zone) {
        return REQUESTING + "_" + stampTime(now, zone);
    }

    /** The time part of a stamp: {@code now} in Go layout {@code 2006-01-02 15:04:05} in {@code zone}. */
    public static String stampTime(Instant now, ZoneId zone) {
        return GoTime.formatDateTime(now, zone);
    }

    /** True when HAMi treats the value as a pending stamp: it contains {@code Requesting} anywhere. */
    public static boolean isRequesting(String value) {
        return value != null && value.contains(REQUESTING);
    }

    /**
     * When the stamp was written: the text after the first {@code _}, parsed as
     * {@code 2006-01-02 15:04:05} in {@code zone} with Go's parser. An error when there is no {@code _}
     * or the text does not parse (HAMi then treats the node as healthy).
     */
    public static Decoded<Instant> requestedAt(String value, ZoneId zone) {
        if (value == null) {
            return Decoded.err("handshake value is absent");
        }
        int underscore = value.indexOf('_');
        if (underscore < 0) {
            return Decoded.err("handshake " + GoStrconv.quote(value) + " has no time stamp");
        }
        return GoTime.parseDateTime(value.substring(underscore + 1), zone);
    }
}
