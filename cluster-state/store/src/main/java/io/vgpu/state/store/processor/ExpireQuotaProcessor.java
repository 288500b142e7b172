package io.vgpu.state.store.processor;

import com.hazelcast.map.EntryProcessor;
import io.vgpu.state.model.QuotaState;

import java.util.Map;

/**
 * Drops a namespace's unconfirmed quota charges past their deadline ({@link QuotaState#expire}). Returns the
 * UIDs dropped.
 *
 * @param nowMillis the sweeping replica's clock
 */
public record ExpireQuotaProcessor(long nowMillis) implements EntryProcessor<String, QuotaState, String[]> {

    @Override
    public String[] process(Map.Entry<String, QuotaState> entry) {
        return StateEntries.applyToQuota(entry, q -> q.expire(nowMillis)).toArray(new String[0]);
    }
}
