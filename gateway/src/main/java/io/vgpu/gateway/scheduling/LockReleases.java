package io.vgpu.gateway.scheduling;

import io.vgpu.state.model.NodeLockHolder;

/**
 * What this replica's node informer saw of node-lock releases: whether the {@code hami.io/mutex.lock} annotation
 * of a given holder has appeared on a node and then gone away. A contended bind uses it to clear a shared-state
 * lock whose release the key's owner has not ingested yet. Thread-safe; never blocks.
 */
@FunctionalInterface
public interface LockReleases {

    /** Knows nothing: contended binds wait for the owner. */
    LockReleases NONE = (node, holder) -> false;

    /**
     * @return true when this replica saw {@code holder}'s annotation removed from {@code node} after the holder
     *         took the shared lock
     */
    boolean sawReleased(String node, NodeLockHolder holder);
}
