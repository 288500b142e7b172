package io.vgpu.state.store.processor;

import com.hazelcast.map.EntryProcessor;
import io.vgpu.state.model.QuotaOutcome;
import io.vgpu.state.model.QuotaState;

import java.util.Map;

/**
 * Charges one pod against its namespace's quota if the quota rule admits it ({@link QuotaState#reserve}).
 *
 * @param podUid         the pod's UID
 * @param mem            MiB
 * @param cores          SM percent
 * @param nowMillis      the caller's clock
 * @param deadlineMillis when the charge expires unless confirmed; {@code QuotaCharge.NO_DEADLINE} confirms
 */
public record ReserveQuotaProcessor(String podUid, long mem, long cores, long nowMillis, long deadlineMillis)
        implements EntryProcessor<String, QuotaState, QuotaOutcome> {

    @Override
    public QuotaOutcome process(Map.Entry<String, QuotaState> entry) {
        return StateEntries.applyToQuota(entry, q -> q.reserve(podUid, mem, cores, nowMillis, deadlineMillis));
    }
}
