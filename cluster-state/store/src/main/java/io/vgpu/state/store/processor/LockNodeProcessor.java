package io.vgpu.state.store.processor;

import com.hazelcast.map.EntryProcessor;
import io.vgpu.state.model.LockOutcome;
import io.vgpu.state.model.NodeState;

import java.util.Map;

/**
 * Takes the node lock in the shared state ({@link NodeState#lockNode}): the atomic contention decision made before
 * the {@code hami.io/mutex.lock} annotation is written.
 *
 * @param podNamespace  the locking pod's namespace
 * @param podName       the locking pod's name
 * @param nowMillis     the caller's clock
 * @param timeoutMillis after how long another holder's lock may be taken over
 */
public record LockNodeProcessor(String podNamespace, String podName, long nowMillis, long timeoutMillis)
        implements EntryProcessor<String, NodeState, LockOutcome> {

    @Override
    public LockOutcome process(Map.Entry<String, NodeState> entry) {
        return StateEntries.applyToNode(entry, s -> s.lockNode(podNamespace, podName, nowMillis, timeoutMillis));
    }
}
