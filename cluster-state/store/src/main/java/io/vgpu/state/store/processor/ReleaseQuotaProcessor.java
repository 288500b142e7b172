package io.vgpu.state.store.processor;

import com.hazelcast.map.EntryProcessor;
import io.vgpu.state.model.QuotaState;

import java.util.Map;

/**
 * Drops one pod's quota charge ({@link QuotaState#release}). Returns true when there was one.
 *
 * @param podUid the pod's UID
 */
public record ReleaseQuotaProcessor(String podUid) implements EntryProcessor<String, QuotaState, Boolean> {

    @Override
    public Boolean process(Map.Entry<String, QuotaState> entry) {
        return StateEntries.applyToQuota(entry, q -> q.release(podUid));
    }
}
