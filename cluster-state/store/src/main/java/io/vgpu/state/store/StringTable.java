package io.vgpu.state.store;

import io.vgpu.state.model.StringPool;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A per-value table of strings for Compact columns: a string that repeats (a GPU UUID in pair scores and in every
 * pod's allocation, a namespace, a vendor word) is written once and referred to by an {@code int}. References
 * {@code 0..seed-1} name the seed (the node's device UUIDs, already written); larger ones name the extra strings,
 * written as one array.
 */
final class StringTable {

    private final Map<String, Integer> refs = new HashMap<>();
    private final List<String> extra = new ArrayList<>();
    private final int seeded;

    StringTable(String[] seed) {
        for (int i = 0; i < seed.length; i++) {
            refs.putIfAbsent(seed[i], i);
        }
        seeded = seed.length;
    }

    /** The reference of {@code value}, adding it to the extra strings when new. */
    int ref(String value) {
        Integer ref = refs.get(value);
        if (ref == null) {
            ref = seeded + extra.size();
            extra.add(value);
            refs.put(value, ref);
        }
        return ref;
    }

    /** The extra strings, in reference order. */
    String[] extra() {
        return extra.toArray(new String[0]);
    }

    /**
     * Resolves references while reading.
     *
     * @param seed  the seed written before
     * @param extra the extra strings written after the columns
     */
    record Reader(String[] seed, String[] extra) {

        /** A reader over the {@link StringPool}'s instances of {@code seed} and {@code extra} (pooled in place). */
        static Reader pooled(String[] seed, String[] extra) {
            for (int i = 0; i < seed.length; i++) {
                seed[i] = StringPool.canonical(seed[i]);
            }
            for (int i = 0; i < extra.length; i++) {
                extra[i] = StringPool.canonical(extra[i]);
            }
            return new Reader(seed, extra);
        }

        String get(int ref) {
            return ref < seed.length ? seed[ref] : extra[ref - seed.length];
        }
    }
}
