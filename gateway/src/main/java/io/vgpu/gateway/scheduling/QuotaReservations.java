package io.vgpu.gateway.scheduling;

import io.vertx.core.Future;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.filter.Candidate;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.DeviceGrant;
import io.vgpu.state.model.QuotaOutcome;
import io.vgpu.state.model.QuotaState;
import io.vgpu.state.model.UsageAccounting;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * DESIGN.md §3 "Quota": a filter reserves the namespace's charge in the shared quota map before the node, so that
 * replicas deciding for one namespace at once cannot exceed its quota together, and releases it when nothing is
 * placed. Only namespaces with a ResourceQuota limit pay this extra hop.
 */
final class QuotaReservations {

    private final ClusterState state;
    private final SchedulingConfig config;

    QuotaReservations(ClusterState state, SchedulingConfig config) {
        this.state = state;
        this.config = config;
    }

    /** @return false when the namespace's quota refuses the pod on {@code candidate} */
    Future<Boolean> reserve(PodSpec pod, Candidate candidate, long now, long deadline) {
        if (!limited(pod.namespace())) {
            return Future.succeededFuture(true);
        }
        List<DeviceGrant> grants = candidate.allocation().grants();
        return Stages.onContext(state.reserveQuota(pod.namespace(), pod.uid(), UsageAccounting.totalMem(grants),
                        UsageAccounting.totalCores(grants), now, deadline))
                .timeout(config.callTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .map(outcome -> outcome instanceof QuotaOutcome.Reserved);
    }

    /** Releases the pod's quota charge, if its namespace is limited; never fails. */
    Future<Void> release(PodSpec pod) {
        if (!limited(pod.namespace())) {
            return Future.succeededFuture();
        }
        return Stages.onContext(state.releaseQuota(pod.namespace(), pod.uid())).otherwiseEmpty().mapEmpty();
    }

    private boolean limited(String namespace) {
        QuotaState q = state.quota(namespace);
        return q != null && !q.limits().none();
    }
}
