package io.vgpu.state.model;

/**
 * The pod that holds a node's lock in the shared state (the first, atomic decision of the node lock; the
 * {@code hami.io/mutex.lock} annotation follows it, DESIGN.md §3 "Node lock").
 *
 * @param namespace   holder pod namespace
 * @param name        holder pod name
 * @param sinceMillis epoch millis at which the lock was taken
 */
public record NodeLockHolder(String namespace, String name, long sinceMillis) {

    /** Null names become "". */
    public NodeLockHolder {
        namespace = namespace == null ? "" : namespace;
        name = name == null ? "" : name;
    }

    /** Returns true when this lock is held by pod {@code podNamespace/podName}. */
    public boolean heldBy(String podNamespace, String podName) {
        return namespace.equals(podNamespace) && name.equals(podName);
    }

    /** Returns true when the lock is older than {@code timeoutMillis} at {@code nowMillis} (HAMi: strictly older). */
    public boolean expiredAt(long nowMillis, long timeoutMillis) {
        return nowMillis - sinceMillis > timeoutMillis;
    }
}
