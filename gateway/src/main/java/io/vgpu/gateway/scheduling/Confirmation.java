package io.vgpu.gateway.scheduling;

import io.vertx.core.Future;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.PodWriter;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.ConfirmLockOutcome;
import io.vgpu.state.model.ConfirmOutcome;
import io.vgpu.state.model.LockOutcome;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.Optional;
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
        return decide(request, pod, (ref, fallback) -> Stages.onContext(state.confirm(request.node(), ref, fallback,
                clock.millis())).map(outcome -> new ConfirmLockOutcome(outcome, null))).map(Decision::result);
    }

    /**
     * The confirmation and the shared node lock in one processor ({@link ClusterState#confirmAndLock}), as the
     * shared try of {@link NodeLocks#acquire(String, io.vgpu.gateway.core.nodelock.NamespacedName,
     * SharedLockTry)}: each try answers the lock's outcome when the confirmation charged the pod, else
     * empty, and {@link ConfirmingLock#result()} tells what the last try decided.
     */
    ConfirmingLock confirmingLock(BindRequest request, ObservedPod pod) {
        return new ConfirmingLock(request, pod);
    }

    /** A bind's confirm-and-lock tries; used on the bind's context only, one try at a time. */
    final class ConfirmingLock implements SharedLockTry {
        private final BindRequest request;
        private final ObservedPod pod;
        private Result result = PROCEED;

        private ConfirmingLock(BindRequest request, ObservedPod pod) {
            this.request = request;
            this.pod = pod;
        }

        @Override
        public Future<Optional<LockOutcome>> attempt(long nowMillis) {
            return decide(request, pod, (ref, fallback) -> Stages.onContext(state.confirmAndLock(request.node(), ref,
                    fallback, nowMillis, config.nodeLockTimeout().toMillis()))).map(decision -> {
                        result = decision.result();
                        return Optional.ofNullable(decision.lock());
                    });
        }

        /** What the last try decided; {@link Proceed} while the lock was tried (held or contended). */
        Result result() {
            return result;
        }
    }

    /** One call to the shared state: a confirmation (with or without the lock) for {@code ref}. */
    @FunctionalInterface
    private interface ConfirmCall {
        Future<ConfirmLockOutcome> call(PodRef ref, PodAllocation fallback);
    }

    /** Where the confirmation leaves the bind, and the lock's outcome when the lock was tried. */
    private record Decision(Result result, LockOutcome lock) {
    }

    private Future<Decision> decide(BindRequest request, ObservedPod pod, ConfirmCall confirm) {
        PodRef ref = new PodRef(request.uid(), request.namespace(), request.name());
        PodAllocation recorded = recordedAllocation(pod.spec(), request.node());
        return timed(confirm.call(ref, null))
                .compose(outcome -> outcome.confirm() instanceof ConfirmOutcome.Missing && recorded != null
                        ? reReserveUnlessPlacedElsewhere(request, ref, recorded, confirm) : decided(request, outcome));
    }

    private Future<Decision> decided(BindRequest request, ConfirmLockOutcome outcome) {
        if (outcome.lock() != null) {
            return Future.succeededFuture(new Decision(PROCEED, outcome.lock()));
        }
        if (!(outcome.confirm() instanceof ConfirmOutcome.Confirmed confirmed)) {
            return Future.succeededFuture(new Decision(refused(request, outcome.confirm()), null));
        }
        return (confirmed.via() == ConfirmOutcome.Via.ALREADY_BOUND ? boundBefore(request)
                : Future.succeededFuture(PROCEED)).map(result -> new Decision(result, null));
    }

    private <T> Future<T> timed(Future<T> call) {
        return call.timeout(config.callTimeout().toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * The pod has no entry on the node (its reservation expired and was swept, or the shared state was rebuilt): its
     * recorded allocation is re-reserved under the capacity rule, unless the pod index places the pod on another node.
     * Then a later filter moved it (this replica's cache still shows the older annotation) and this bind comes from a
     * scheduler that missed that: re-reserving here would charge, lock and bind the pod a second time.
     */
    private Future<Decision> reReserveUnlessPlacedElsewhere(BindRequest request, PodRef ref, PodAllocation recorded,
                                                            ConfirmCall confirm) {
        return timed(Stages.onContext(state.podNode(request.uid())))
                .compose(placed -> placed.isPresent() && !placed.get().equals(request.node())
                        ? Future.succeededFuture(new Decision(new Refused(DecisionFailure.NO_RESERVATION,
                                cannotBind(request) + "no reservation (the pod was placed on " + placed.get()
                                        + " since)"), null))
                        : timed(confirm.call(ref, recorded)).compose(outcome -> decided(request, outcome)));
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
