package io.vgpu.state.store;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;

import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * This replica's copy of every entry of one map, fed by a cluster-wide entry listener with values (not a near
 * cache: it must iterate all keys), plus a value derived from each entry (the node's {@code NodeView}, computed
 * once per change instead of once per read). Reads never touch the network.
 *
 * <p>Hazelcast delivers the events of one key in order, on one event thread. The initial {@link #load} may race
 * with events: a key touched by an event while loading keeps the event's value (both paths update a key inside
 * one atomic {@code compute}).
 *
 * @param <V> the stored value
 * @param <D> the derived value (null when an entry has none, e.g. an unregistered node)
 */
final class LocalSnapshot<V, D> implements EntryAddedListener<String, V>, EntryUpdatedListener<String, V>,
        EntryRemovedListener<String, V> {

    private final Map<String, V> values = new ConcurrentHashMap<>();
    private final Map<String, D> derived = new ConcurrentHashMap<>();
    private final Function<V, D> derive;
    private final BiPredicate<V, V> supersedes;
    private final Consumer<String> changed;
    private volatile Set<String> touchedWhileLoading = ConcurrentHashMap.newKeySet();

    LocalSnapshot(Function<V, D> derive) {
        this(derive, (next, current) -> true);
    }

    /**
     * @param derive     the derived value of an entry (null: none)
     * @param supersedes whether an event's value ({@code next}) replaces the one held ({@code current}, not null):
     *                   false drops it, e.g. an out-of-order copy of an older version; removals always apply
     */
    LocalSnapshot(Function<V, D> derive, BiPredicate<V, V> supersedes) {
        this(derive, supersedes, key -> { });
    }

    /**
     * @param changed told the key after each change of its value here (an event applied, a load, a drop), once the
     *                value can be read: e.g. to join it with another snapshot's value of the same key
     */
    LocalSnapshot(Function<V, D> derive, BiPredicate<V, V> supersedes, Consumer<String> changed) {
        this.derive = derive;
        this.supersedes = supersedes;
        this.changed = changed;
    }

    @Override
    public void entryAdded(EntryEvent<String, V> event) {
        apply(event.getKey(), event.getValue());
    }

    @Override
    public void entryUpdated(EntryEvent<String, V> event) {
        apply(event.getKey(), event.getValue());
    }

    @Override
    public void entryRemoved(EntryEvent<String, V> event) {
        apply(event.getKey(), null);
    }

    /**
     * Fills the snapshot with the map's content read after the listener was registered (or after
     * {@link #beginLoad}); then only events count. A key no event touched meanwhile takes the read value, or goes
     * when the read did not have it.
     */
    void load(Map<String, V> all) {
        Set<String> touched = touchedWhileLoading;
        all.forEach((key, value) -> values.compute(key, (k, current) -> {
            if (touched != null && touched.contains(k)) {
                return current;
            }
            putDerived(k, value);
            return value;
        }));
        all.keySet().forEach(changed);
        for (String key : values.keySet()) {
            if (!all.containsKey(key)) {
                values.computeIfPresent(key, (k, current) -> {
                    if (touched != null && touched.contains(k)) {
                        return current;
                    }
                    derived.remove(k);
                    return null;
                });
                changed.accept(key);
            }
        }
        touchedWhileLoading = null;
    }

    /** Starts recording the keys that events touch, before the map is read again for {@link #load}. */
    void beginLoad() {
        touchedWhileLoading = ConcurrentHashMap.newKeySet();
    }

    /** A value read outside the listener (e.g. a key taken over): applied like an event, so a newer one stays. */
    void offer(String key, V value) {
        apply(key, value);
    }

    /** Drops every key {@code keep} rejects. */
    void retain(Predicate<String> keep) {
        for (String key : values.keySet()) {
            values.computeIfPresent(key, (k, current) -> {
                if (keep.test(k)) {
                    return current;
                }
                derived.remove(k);
                return null;
            });
            changed.accept(key);
        }
    }

    V get(String key) {
        return values.get(key);
    }

    D derived(String key) {
        return derived.get(key);
    }

    Collection<V> values() {
        return Collections.unmodifiableCollection(values.values());
    }

    Collection<D> derivedValues() {
        return Collections.unmodifiableCollection(derived.values());
    }

    private void apply(String key, V value) {
        values.compute(key, (k, current) -> {
            if (value != null && current != null && !supersedes.test(value, current)) {
                return current;
            }
            Set<String> touched = touchedWhileLoading;
            if (touched != null) {
                touched.add(k);
            }
            putDerived(k, value);
            return value;
        });
        changed.accept(key);
    }

    private void putDerived(String key, V value) {
        D d = value == null ? null : derive.apply(value);
        if (d == null) {
            derived.remove(key);
        } else {
            derived.put(key, d);
        }
    }
}
