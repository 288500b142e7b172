package io.vgpu.state.store.processor;

import com.hazelcast.map.EntryProcessor;
import io.vgpu.state.model.ConfirmOutcome;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodRef;
import io.vgpu.state.model.StringPool;

import java.util.Map;

/**
 * {@code /bind}'s confirmation on one node key ({@link NodeState#confirm}).
 *
 * @param pod       the pod
 * @param fallback  the allocation to re-reserve when the pod has no entry, or null
 * @param nowMillis the caller's clock
 */
public record ConfirmProcessor(PodRef pod, PodAllocation fallback, long nowMillis)
        implements EntryProcessor<String, NodeState, ConfirmOutcome> {

    /** Pools the namespace and the fallback's UUIDs and vendor words (equal values; issue 6's heap). */
    public ConfirmProcessor {
        pod = StringPool.canonical(pod);
        fallback = StringPool.canonical(fallback);
    }

    @Override
    public ConfirmOutcome process(Map.Entry<String, NodeState> entry) {
        return StateEntries.applyToNode(entry, s -> s.confirm(pod, fallback, nowMillis));
    }
}
