package io.vgpu.gateway.scheduling;

import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.NodeLock;
import io.vgpu.state.codec.NodeLockCodec;
import io.vgpu.state.model.NodeLockHolder;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What this replica's informers show of the nodes' {@code hami.io/mutex.lock} annotations, for {@link NodeLocks}:
 * every node's current annotation and the last one seen to go away. Fed by every node event (informer events arrive
 * one at a time); read by binds on any thread. Thread-safe.
 */
final class SeenAnnotations {

    /** Nodes the informers show (every node, owned or not). */
    private final Set<String> nodes = ConcurrentHashMap.newKeySet();
    /** Per node, the lock annotation it shows now; absent when it shows none. */
    private final Map<String, String> current = new ConcurrentHashMap<>();
    /** Per node, the last lock annotation seen to go away. */
    private final Map<String, String> released = new ConcurrentHashMap<>();

    /** Remembers the node's lock annotation; returns the value it showed before (null: none). */
    String track(NodeObservation node) {
        nodes.add(node.name());
        if (node.lock() != null) {
            return current.put(node.name(), node.lock());
        }
        String before = current.remove(node.name());
        if (before != null) {
            released.put(node.name(), before);
        }
        return before;
    }

    /** The node is gone. */
    void forget(String node) {
        nodes.remove(node);
        current.remove(node);
        released.remove(node);
    }

    /** The node is shown, without a lock annotation. */
    boolean showsNoLock(String node) {
        return nodes.contains(node) && !current.containsKey(node);
    }

    /**
     * The annotation last seen to go away on {@code node} names {@code holder} and was written after the holder took
     * the shared lock (annotation times have whole seconds, hence the second of slack), so it is this holding's, not
     * an earlier one of the same pod.
     */
    boolean sawReleased(String node, NodeLockHolder holder) {
        String gone = released.get(node);
        if (gone == null || !names(gone, holder)) {
            return false;
        }
        Decoded<NodeLock> lock = NodeLockCodec.parse(gone);
        return lock.value().time().toEpochMilli() >= holder.sinceMillis() - 1_000;
    }

    /** Whether a lock annotation value names the holder (a legacy value without an owner names nobody). */
    static boolean names(String annotation, NodeLockHolder holder) {
        Decoded<NodeLock> lock = NodeLockCodec.parse(annotation);
        return lock.isOk() && lock.value().namesOwner() && lock.value().ownedBy(holder.namespace(), holder.name());
    }
}
