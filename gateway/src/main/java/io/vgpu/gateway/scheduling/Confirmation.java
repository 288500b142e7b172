package io.vgpu.gateway.scheduling;

import io.vertx.core.Future;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.PodWriter;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.ConfirmOutcome;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.concurrent.TimeUnit;

/**
 * The bind's confirmation (DESIGN.md §3 "Charging rule"): turns the filter's reservation into a Bound charge, or
 * re-reserves the allocation recorded on the pod under the capacity rule when the reservation is gone, and tells a
 * retried bind of a pod that is bound already (one live read, since the informer cache may not show the binding
 * yet).
 * <pre>
 *   confirm ── Confirmed(RESERVATION | RE_RESERVED) ───────────────────────────────► PROCEED
 *           ── Confirmed(ALREADY_BOUND) ─► live read ── bound to this node ───────► DONE (nothing to write)
 *                                                    ── bound to another node ────► Refused(BOUND_ELSEWHERE)
 *                                                    ── unbound ───────────────────► PROCEED (bind again)
 *           ── Missing, the pod records an allocation for this node ─► pod index: elsewhere ─► Refused(NO_RESERVATION)
 *                                                                               else confirm with the allocation
 *           ── UnknownNode / Missing / Refused ──────────────────────────────────────► Refused(...)
 * </pre>
 */
final class Confirmation {

    private static final Logger LOG = LoggerFactory.getLogger(Confirmation.class);

    /** Where a confirmed bind goes on. */
    sealed interface Result {
    }

    /** Lock, bind-phase, Binding. */
    record Proceed() implements Result {
    }

    /** The pod is bound to the node already: nothing to write. */
    record Done() implements Result {
    }

    /**
     * No binding.
     *
     * @param cause   why
     * @param message HAMi-style text
     */
    record Refused(DecisionFailure cause, String message) implements Result {
    }

    private static final Result PROCEED = new Proceed();
    private static final Result DONE = new Done();

    private final ClusterState state;
    private final PodWriter pods;
    private final SchedulingConfig config;
    private final Clock clock;

    Confirmation(ClusterState state, PodWriter pods, SchedulingConfig config, Clock clock) {
        this.state = state;
        this.pods = pods;
        this.config = config;
        this.clock = clock;
    }

    /** Confirms {@code pod} (as the cache or a live read shows it, unbound) on the request's node. */
    Future<Result> confirm(BindRequest request, ObservedPod pod) {
        PodRef ref = new PodRef(request.uid(), request.namespace(), request.name());
        PodAllocation recorded = recordedAllocation(pod.spec(), request.node());
        return confirm(request, ref, null)
                .compose(outcome -> outcome instanceof ConfirmOutcome.Missing && recorded != null
                        ? reReserveUnlessPlacedElsewhere(request, ref, recorded) : decided(request, outcome));
    }

    private Future<Result> decided(BindRequest request, ConfirmOutcome outcome) {
        if (!(outcome instanceof ConfirmOutcome.Confirmed confirmed)) {
            return Future.succeededFuture(refused(request, outcome));
        }
        return confirmed.via() == ConfirmOutcome.Via.ALREADY_BOUND ? boundBefore(request)
                : Future.succeededFuture(PROCEED);
    }

    private Future<ConfirmOutcome> confirm(BindRequest request, PodRef ref, PodAllocation fallback) {
        return Stages.onContext(state.confirm(request.node(), ref, fallback, clock.millis()))
                .timeout(config.callTimeout().toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * The pod has no entry on the node (its reservation expired and was swept, or the shared state was rebuilt): its
     * recorded allocation is re-reserved under the capacity rule, unless the pod index places the pod on another node.
     * Then a later filter moved it (this replica's cache still shows the older annotation) and this bind comes from a
     * scheduler that missed that: re-reserving here would charge, lock and bind the pod a second time.
     */
    private Future<Result> reReserveUnlessPlacedElsewhere(BindRequest request, PodRef ref, PodAllocation recorded) {
        return Stages.onContext(state.podNode(request.uid()))
                .timeout(config.callTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .compose(placed -> placed.isPresent() && !placed.get().equals(request.node())
                        ? Future.succeededFuture(new Refused(DecisionFailure.NO_RESERVATION, cannotBind(request)
                                + "no reservation (the pod was placed on " + placed.get() + " since)"))
                        : confirm(request, ref, recorded).compose(outcome -> decided(request, outcome)));
    }

    /**
     * The shared state says the pod is bound already: a retried bind, or a retry after a bind that failed past its
     * confirmation. The informer cache may not show the binding yet, so ask the API server: bound to this node ⇒
     * done, with no second lock, bind-phase or Binding (re-taking the lock after the device plugin released it
     * would leave a lock nobody releases, and bind-phase would go back from success to allocating).
     */
    private Future<Result> boundBefore(BindRequest request) {
        return Stages.onContext(pods.readPod(request.pod()))
                .timeout(config.callTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .map(read -> {
                    String live = read.map(ObservedPod::boundNode).orElse("");
                    if (live.equals(request.node())) {
                        LOG.info("bind {}/{} to {}: already bound", request.namespace(), request.name(),
                                request.node());
                        return DONE;
                    }
                    return live.isEmpty() ? PROCEED : new Refused(DecisionFailure.BOUND_ELSEWHERE, "pod "
                            + request.namespace() + "/" + request.name() + " is already bound to node " + live);
                });
    }

    /** Why the shared state would not confirm the pod, with HAMi-style text and the failure-reason label. */
    private static Refused refused(BindRequest request, ConfirmOutcome outcome) {
        String cannot = cannotBind(request);
        if (outcome instanceof ConfirmOutcome.UnknownNode) {
            return new Refused(DecisionFailure.NODE_UNREGISTERED, cannot + "node is not registered");
        }
        if (outcome instanceof ConfirmOutcome.Missing) {
            return new Refused(DecisionFailure.NO_RESERVATION, cannot + "no reservation (filter first)");
        }
        return new Refused(DecisionFailure.RESERVATION_EXPIRED, cannot + "its reservation expired and the devices are "
                + "taken");
    }

    private static String cannotBind(BindRequest request) {
        return "cannot bind " + request.namespace() + "/" + request.name() + " to " + request.node() + ": ";
    }

    /**
     * The allocation recorded on the pod, so an expired reservation can be re-made under the capacity rule; only
     * for the node the filter chose ({@code hami.io/vgpu-node}): the recorded device UUIDs belong to that node, and
     * a charge made anywhere else would never be released (pod ingest releases on the annotated node only).
     */
    private static PodAllocation recordedAllocation(PodSpec spec, String node) {
        return node.equals(spec.annotation(HamiAnnotations.VGPU_NODE)) ? Recorded.allocation(spec) : null;
    }
}
