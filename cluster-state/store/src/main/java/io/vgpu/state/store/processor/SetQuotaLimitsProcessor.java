package io.vgpu.state.store.processor;

import com.hazelcast.map.EntryProcessor;
import io.vgpu.state.model.QuotaLimits;
import io.vgpu.state.model.QuotaState;

import java.util.Map;

/**
 * Sets a namespace's enforced limits ({@link QuotaState#withLimits}). Returns true when the value changed.
 *
 * @param limits the limits (memory already scaled by memoryFactor)
 */
public record SetQuotaLimitsProcessor(QuotaLimits limits) implements EntryProcessor<String, QuotaState, Boolean> {

    @Override
    public Boolean process(Map.Entry<String, QuotaState> entry) {
        return StateEntries.applyToQuota(entry, q -> q.withLimits(limits));
    }
}
