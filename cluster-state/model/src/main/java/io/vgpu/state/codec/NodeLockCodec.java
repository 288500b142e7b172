package io.vgpu.state.codec;

import java.time.Instant;
import java.time.ZoneId;

/**
 * The node lock value {@code <RFC3339 time>,<pod namespace>,<pod name>} of annotation
 * {@code hami.io/mutex.lock} (spec §11.2), e.g. {@code 2026-08-01T06:00:00Z,ns,pod-a} or
 * {@code 2026-08-01T14:00:00+08:00,ns,pod-a}. The HAMi device plugin finds the pod it is allocating by
 * parsing this value, so the format is a wire contract. Pure and thread-safe.
 */
public final class NodeLockCodec {

    /** The separator between time, namespace and name. */
    public static final String SEPARATOR = ",";

    private NodeLockCodec() {
    }

    /**
     * The value a scheduler writes: {@code now} formatted like Go's {@code time.RFC3339} in {@code zone}
     * (whole seconds; {@code Z} for a zero offset, else {@code ±hh:mm}), then {@code ,<namespace>,<name>}.
     */
    public static String value(Instant now, ZoneId zone, String namespace, String name) {
        return GoTime.formatRfc3339(now, zone) + SEPARATOR + podNamespaceName(namespace, name, SEPARATOR);
    }

    /** A legacy, owner-less value: the bare RFC3339 time. */
    public static String legacyValue(Instant now, ZoneId zone) {
        return GoTime.formatRfc3339(now, zone);
    }

    /** HAMi {@code GeneratePodNamespaceName}: {@code <namespace><sep><name>}. */
    public static String podNamespaceName(String namespace, String name, String sep) {
        return namespace + sep + name;
    }

    /** The suffix {@code ,<namespace>,<name>} by which a lock value names its owner. */
    public static String ownerSuffix(String namespace, String name) {
        return SEPARATOR + podNamespaceName(namespace, name, SEPARATOR);
    }

    /**
     * HAMi {@code ParseNodeLock}: a value without a comma is a legacy bare time; otherwise it must have
     * exactly 3 comma parts ({@code malformed lock annotation: expected 3 parts, got <n> from <value>}) and
     * the first must parse as Go RFC3339 (Go's {@code parsing time ...} error otherwise).
     */
    public static Decoded<NodeLock> parse(String value) {
        if (value == null) {
            return Decoded.err("node lock value is absent");
        }
        if (!value.contains(SEPARATOR)) {
            return GoTime.parseRfc3339(value).map(t -> new NodeLock(t, "", "", true));
        }
        String[] parts = value.split(SEPARATOR, -1);
        if (parts.length != 3) {
            return Decoded.err("malformed lock annotation: expected 3 parts, got " + parts.length + " from " + value);
        }
        return GoTime.parseRfc3339(parts[0]).map(t -> new NodeLock(t, parts[1], parts[2], false));
    }

    /**
     * The merge patch that sets the lock, guarded by the node's resourceVersion so that a concurrent
     * writer makes the API server answer 409:
     * {@code {"metadata":{"annotations":{"hami.io/mutex.lock":"<value>"},"resourceVersion":"<rv>"}}}.
     */
    public static String setPatch(String value, String resourceVersion) {
        StringBuilder out = new StringBuilder("{\"metadata\":{\"annotations\":{");
        GoJsonText.appendString(out, HamiAnnotations.NODE_LOCK).append(':');
        GoJsonText.appendString(out, value).append("},\"resourceVersion\":");
        return GoJsonText.appendString(out, resourceVersion).append("}}").toString();
    }

    /**
     * The merge patch that removes the lock, guarded by resourceVersion:
     * {@code {"metadata":{"annotations":{"hami.io/mutex.lock":null},"resourceVersion":"<rv>"}}}.
     */
    public static String removePatch(String resourceVersion) {
        StringBuilder out = new StringBuilder("{\"metadata\":{\"annotations\":{");
        GoJsonText.appendString(out, HamiAnnotations.NODE_LOCK).append(":null},\"resourceVersion\":");
        return GoJsonText.appendString(out, resourceVersion).append("}}").toString();
    }
}
