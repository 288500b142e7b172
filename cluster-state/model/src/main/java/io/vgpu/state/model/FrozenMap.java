package io.vgpu.state.model;

import java.util.AbstractMap;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A read-only copy in insertion order that nothing else can change: what {@link NodeInventory#copyScores} makes, so
 * that a value built from another value's pair scores (every charge builds a new {@link NodeState}) keeps them
 * instead of copying them again, where {@code Collections.unmodifiableMap} cannot tell its own copy from a view of
 * someone's mutable map. Equality and hash code are a map's ({@link AbstractMap}); the hash code is kept, since the
 * copies are looked up in {@link NodeInventory}'s pool.
 */
final class FrozenMap<K, V> extends AbstractMap<K, V> {

    private final Map<K, V> map;
    private final Set<Entry<K, V>> entries;
    /** 0 until computed. */
    private int hash;

    FrozenMap(Map<? extends K, ? extends V> source) {
        this.map = new LinkedHashMap<>(source);
        this.entries = Collections.unmodifiableMap(map).entrySet();
    }

    @Override
    public Set<Entry<K, V>> entrySet() {
        return entries;
    }

    @Override
    public V get(Object key) {
        return map.get(key);
    }

    @Override
    public boolean containsKey(Object key) {
        return map.containsKey(key);
    }

    @Override
    public int size() {
        return map.size();
    }

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = map.hashCode();
            hash = h;
        }
        return h;
    }
}
