package io.vgpu.state.store.processor;

import com.hazelcast.map.EntryProcessor;
import io.vgpu.state.model.QuotaState;

import java.util.Map;

/**
 * Informer ingest of a bound pod's quota charge ({@link QuotaState#observe}). Returns true when the value changed.
 *
 * @param podUid the pod's UID
 * @param mem    MiB
 * @param cores  SM percent
 */
public record ObserveQuotaProcessor(String podUid, long mem, long cores)
        implements EntryProcessor<String, QuotaState, Boolean> {

    @Override
    public Boolean process(Map.Entry<String, QuotaState> entry) {
        return StateEntries.applyToQuota(entry, q -> q.observe(podUid, mem, cores));
    }
}
