package io.vgpu.gateway.core.filter;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;

/**
 * A request's {@code NodeNames} by position, and each name's position, shared by every pod shape's {@link RankState}
 * while kube-scheduler keeps listing the same nodes (one array and one map at 10,000 nodes, not one per shape).
 * Immutable but for the map, made the first time it is asked for (a benign race: equal maps).
 */
final class NameIndex {

    private final String[] names;
    private volatile Map<String, Integer> positions;

    private NameIndex(String[] names) {
        this.names = names;
    }

    /** {@code last} when it lists the very same {@code String}s as {@code requested}, else a new index of them. */
    static NameIndex of(List<String> requested, NameIndex last) {
        return last != null && last.sameAs(requested) ? last : new NameIndex(requested.toArray(new String[0]));
    }

    /** Whether {@code requested} lists the very same objects, in the same order (identity: the cheap test). */
    boolean sameAs(List<String> requested) {
        if (requested.size() != names.length || !(requested instanceof RandomAccess)) {
            return false;
        }
        for (int i = 0; i < names.length; i++) {
            if (requested.get(i) != names[i]) {
                return false;
            }
        }
        return true;
    }

    int size() {
        return names.length;
    }

    String name(int position) {
        return names[position];
    }

    /** Name → position; null when a name is listed twice (then a name does not tell one position). */
    Map<String, Integer> positions() {
        Map<String, Integer> at = positions;
        if (at == null) {
            Map<String, Integer> made = new HashMap<>(names.length * 2);
            for (int i = 0; i < names.length; i++) {
                if (made.put(names[i], i) != null) {
                    return null;
                }
            }
            positions = made;
            at = made;
        }
        return at;
    }
}
