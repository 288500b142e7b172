package io.vgpu.state.codec;

import java.util.Map;
import java.util.TreeMap;

/**
 * The JSON merge-patch bodies the scheduler sends to pods and nodes (spec §6.2, §7.2), byte-exact with
 * HAMi: keys in sorted order (as Go marshals maps) and strings escaped as Go's {@code encoding/json} does.
 * Pure and thread-safe.
 *
 * <pre>
 *  filter : {"metadata":{"annotations":{&lt;sorted annotations&gt;},"labels":{&lt;sorted labels&gt;}}}
 *  bind   : {"metadata":{"annotations":{"hami.io/bind-phase":"allocating","hami.io/bind-time":"1724220040"}}}
 *  stamp  : {"metadata":{"annotations":{"hami.io/node-handshake":"Requesting_2026-08-01 14:00:00"}}}
 *  unstamp: {"metadata":{"annotations":{"hami.io/node-handshake":null}}}
 * </pre>
 */
public final class PodPatchCodec {

    /** The bind-phase value written by {@code /bind} before the Binding. */
    public static final String PHASE_ALLOCATING = "allocating";

    private PodPatchCodec() {
    }

    /**
     * The {@code /filter} patch: annotations and labels merged into the pod's metadata. An empty label map
     * leaves {@code labels} out, as HAMi's {@code PatchPodAnnotations} does when it has no labels to set.
     */
    public static String filterPatch(Map<String, String> annotations, Map<String, String> labels) {
        StringBuilder out = new StringBuilder(256).append("{\"metadata\":{\"annotations\":");
        appendObject(out, annotations);
        if (labels != null && !labels.isEmpty()) {
            out.append(",\"labels\":");
            appendObject(out, labels);
        }
        return out.append("}}").toString();
    }

    /** The {@code /bind} patch: {@code hami.io/bind-phase} and {@code hami.io/bind-time} (Unix seconds). */
    public static String bindPatch(String phase, long bindTimeSeconds) {
        return annotationsPatch(Map.of(HamiAnnotations.BIND_PHASE, phase,
                HamiAnnotations.BIND_TIME, Long.toString(bindTimeSeconds)));
    }

    /** A patch that merges {@code annotations} (sorted) into metadata.annotations. */
    public static String annotationsPatch(Map<String, String> annotations) {
        StringBuilder out = new StringBuilder(128).append("{\"metadata\":{\"annotations\":");
        appendObject(out, annotations);
        return out.append("}}").toString();
    }

    /** A patch that removes annotation {@code key} (merge {@code null}). */
    public static String removeAnnotationPatch(String key) {
        StringBuilder out = new StringBuilder(64).append("{\"metadata\":{\"annotations\":{");
        GoJsonText.appendString(out, key);
        return out.append(":null}}}").toString();
    }

    /** Appends {@code value} as a Go-escaped JSON string (for callers composing other bodies). */
    public static String quote(String value) {
        return GoJsonText.appendString(new StringBuilder(value.length() + 2), value).toString();
    }

    private static void appendObject(StringBuilder out, Map<String, String> entries) {
        out.append('{');
        boolean first = true;
        for (Map.Entry<String, String> e : new TreeMap<>(entries == null ? Map.of() : entries).entrySet()) {
            if (!first) {
                out.append(',');
            }
            first = false;
            GoJsonText.appendString(out, e.getKey()).append(':');
            GoJsonText.appendString(out, e.getValue() == null ? "" : e.getValue());
        }
        out.append('}');
    }
}
