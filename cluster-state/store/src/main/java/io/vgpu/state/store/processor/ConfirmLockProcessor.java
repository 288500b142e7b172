package io.vgpu.state.store.processor;

import com.hazelcast.map.EntryProcessor;
import io.vgpu.state.model.ConfirmLockOutcome;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodRef;
import io.vgpu.state.model.StringPool;

import java.util.Map;

/**
 * {@code /bind}'s confirmation and node lock on one node key, in one processor ({@link NodeState#confirmAndLock}):
 * one hop instead of two, and a contended lock leaves the value as it was.
 *
 * @param pod               the pod
 * @param fallback          the allocation to re-reserve when the pod has no entry, or null
 * @param nowMillis         the caller's clock
 * @param lockTimeoutMillis after how long another holder's lock may be taken over
 */
public record ConfirmLockProcessor(PodRef pod, PodAllocation fallback, long nowMillis, long lockTimeoutMillis)
        implements EntryProcessor<String, NodeState, ConfirmLockOutcome> {

    /** Pools the namespace and the fallback's UUIDs and vendor words (equal values; issue 6's heap). */
    public ConfirmLockProcessor {
        pod = StringPool.canonical(pod);
        fallback = StringPool.canonical(fallback);
    }

    @Override
    public ConfirmLockOutcome process(Map.Entry<String, NodeState> entry) {
        return StateEntries.applyToNode(entry, s -> s.confirmAndLock(pod, fallback, nowMillis, lockTimeoutMillis));
    }
}
