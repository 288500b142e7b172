package io.vgpu.state.model;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Canonical instances of immutable values that recur across pods, as {@link StringPool} is for words: e.g. a pod's
 * container list (name, resource limits), equal for every pod of a workload, which each replica's informer mirror
 * would otherwise hold once per pod (issue 14's heap: 200,000 pods).
 *
 * <p>Contract as {@link StringPool}'s: {@link #of} returns a value {@link Object#equals equal} to its argument, the
 * same instance for equal arguments while the pool holds it; bounded (at its capacity it starts afresh, values handed
 * out stay valid). Only immutable values with value equality may go in. Thread-safe and lock-free for hits.
 *
 * @param <T> the value type
 */
public final class ValuePool<T> {

    private final Map<T, T> pool = new ConcurrentHashMap<>();
    private final int capacity;

    /** @param capacity how many distinct values the pool holds before it starts afresh (at least 1) */
    public ValuePool(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity " + capacity);
        }
        this.capacity = capacity;
    }

    /** The canonical instance of {@code value}: equal to it, the same instance for equal values; null stays null. */
    public T of(T value) {
        if (value == null) {
            return null;
        }
        T known = pool.get(value);
        if (known != null) {
            return known;
        }
        if (pool.size() >= capacity) {
            pool.clear(); // bounded: start afresh rather than grow with every value ever seen
        }
        known = pool.putIfAbsent(value, value);
        return known == null ? value : known;
    }

    /** How many values the pool holds now. */
    public int size() {
        return pool.size();
    }
}
