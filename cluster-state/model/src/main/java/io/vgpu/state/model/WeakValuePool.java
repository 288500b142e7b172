package io.vgpu.state.model;

import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.UnaryOperator;

/**
 * Canonical instances of immutable values, held weakly: a value is shared while some holder still refers to it and
 * forgotten with its last holder, so values of nodes long gone never pile up (unlike {@link ValuePool}, which holds
 * its values until it starts afresh; right for small words and lists, not for a node's facts). Only immutable values
 * with value equality may go in. Thread-safe (one lock: only decoded and newly registered values pass here, not
 * every transition of a node's charges).
 *
 * @param <T> the value type
 */
final class WeakValuePool<T> {

    /** The canonical instance, held weakly as the key and, so that the key stays collectable, as the value. */
    private final Map<T, WeakReference<T>> pool = new WeakHashMap<>();

    /** The canonical instance of {@code value}: equal to it, the same instance for equal values; null stays null. */
    T of(T value) {
        return of(value, v -> v);
    }

    /**
     * As {@link #of(Object)}; a value not held yet goes in as {@code prepare} makes it (an equal value, e.g. with
     * pooled words), so that what every later equal value shares is the prepared one.
     */
    synchronized T of(T value, UnaryOperator<T> prepare) {
        if (value == null) {
            return null;
        }
        WeakReference<T> ref = pool.get(value);
        T known = ref == null ? null : ref.get();
        if (known != null) {
            return known;
        }
        T prepared = prepare.apply(value);
        pool.put(prepared, new WeakReference<>(prepared));
        return prepared;
    }

    /** How many values the pool holds now (some may be collected already). */
    synchronized int size() {
        return pool.size();
    }
}
