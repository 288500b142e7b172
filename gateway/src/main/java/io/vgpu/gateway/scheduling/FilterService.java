package io.vgpu.gateway.scheduling;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vgpu.gateway.core.KubeIdentity;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.filter.Candidate;
import io.vgpu.gateway.core.filter.FilterAnnotations;
import io.vgpu.gateway.core.filter.FilterDecider;
import io.vgpu.gateway.core.filter.FilterDecision;
import io.vgpu.gateway.core.filter.ViewSource;
import io.vgpu.gateway.core.port.EventSink;
import io.vgpu.gateway.core.port.PodAddress;
import io.vgpu.gateway.core.port.PodWriter;
import io.vgpu.gateway.core.port.ScoredNode;
import io.vgpu.gateway.core.quota.QuotaBook;
import io.vgpu.gateway.core.reason.NodeReason;
import io.vgpu.gateway.core.reason.NodeRejection;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.NodeView;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodRef;
import io.vgpu.state.model.ReserveOutcome;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.AbstractList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The {@code /filter} verb (spec §9, DESIGN.md §3 "Optimistic filter"): decide on the local snapshot, reserve the best
 * node with one atomic entry processor (the namespace's quota first, {@link QuotaReservations}), patch the pod's HAMi
 * annotations, then answer. A refused reservation (another replica won the race) moves on to the next-best node, up
 * to {@link SchedulingConfig#reserveAttempts()}.
 * <pre>
 *   identity valid? ── no ──► Failed(INVALID_REQUEST)
 *   decide ── no GPU request ──► PassThrough      ── bad weights ──► Failed      ── nothing fits ──► NoFit(NO_FIT)
 *      │ ranked fits
 *      ▼
 *   quota ── refused ──► NoFit(QUOTA_EXCEEDED)
 *   reserve ranked[i] ── refused ──► i+1 while attempts last, else NoFit(RESERVATION_CONFLICT), quota released
 *      │ reserved (or bound there already)
 *      ▼
 *   annotate ── failed ──► the reservation and quota undone, Failed(ANNOTATE_FAILED) ── ok ──► Placed(node)
 * </pre>
 * Events (FilteringSucceed, FilteringFailed) are written beside the answer. The future never fails: an unexpected
 * failure is a {@link FilterOutcome.Failed} with its cause.
 */
public final class FilterService {

    private static final Logger LOG = LoggerFactory.getLogger(FilterService.class);
    /**
     * Decisions over at most this many (container, node) pairs run on the event loop (about a millisecond: a
     * one-container pod over 4,096 nodes); larger ones on a worker, so that no request holds the loop for long.
     */
    private static final long INLINE_DECISION_PAIRS = 4_096;

    private final FilterDecider decider;
    private final ClusterState state;
    private final QuotaBook quotas;
    private final QuotaReservations quotaReservations;
    private final EarlierReservation earlier;
    private final PodWriter pods;
    private final EventSink events;
    private final SchedulingConfig config;
    private final Clock clock;
    /** The state's views and their log of changes, one object for the replica's life (the decider's marks are its). */
    private final ViewSource views;

    /**
     * @param decider the pure filter decision
     * @param state   the shared cluster state (reservations)
     * @param quotas  the namespace quota book Fit consults
     * @param pods    writes the filter annotations
     * @param events  Kubernetes events
     * @param config  timing and bounds
     * @param clock   the time source
     */
    public FilterService(FilterDecider decider, ClusterState state, QuotaBook quotas, PodWriter pods,
                         EventSink events, SchedulingConfig config, Clock clock) {
        this.decider = decider;
        this.state = state;
        this.quotas = quotas;
        this.quotaReservations = new QuotaReservations(state, config);
        this.earlier = new EarlierReservation(state, config);
        this.pods = pods;
        this.events = events;
        this.config = config;
        this.clock = clock;
        this.views = new StateViews(state);
    }

    /**
     * Decides where {@code pod} goes among {@code nodeNames} (kube-scheduler's {@code NodeNames}: the nodes it found
     * feasible; null is treated as none), reserves it there and annotates it. The future never fails.
     */
    public Future<FilterOutcome> filter(PodSpec pod, List<String> nodeNames) {
        try {
            String invalid = invalidIdentity(pod);
            if (invalid != null) {
                // names no pod that can exist: nothing to reserve, annotate or report an Event on
                LOG.warn("filter refused: {}", invalid);
                return Future.succeededFuture(new FilterOutcome.Failed(invalid, DecisionFailure.INVALID_REQUEST, 0));
            }
            Call call = new Call(pod, nodeNames);
            return earlier.scoredWithout(pod)
                    .compose(previous -> decideAndReserve(call, previous))
                    .recover(e -> {
                        LOG.warn("filter {}/{}: {}", pod.namespace(), pod.name(), e.toString());
                        return Future.succeededFuture(new FilterOutcome.Failed(DecisionFailure.message(e),
                                DecisionFailure.of(e), call.conflicts));
                    });
        } catch (RuntimeException e) {
            LOG.error("filter failed unexpectedly", e);
            return Future.succeededFuture(new FilterOutcome.Failed(DecisionFailure.message(e), DecisionFailure.ERROR,
                    0));
        }
    }

    /**
     * Why the pod cannot be scheduled for real, or null: its namespace and name must be valid Kubernetes names (they
     * go into API paths) and its UID the one the API server gave it (its reservation is keyed by it).
     */
    static String invalidIdentity(PodSpec pod) {
        return KubeIdentity.podProblem("Pod metadata.namespace", pod.namespace(), "Pod metadata.name", pod.name(),
                "Pod metadata.uid", pod.uid());
    }

    private Future<FilterOutcome> decideAndReserve(Call call, Optional<NodeView> previous) {
        // a re-filtered pod never competes with its own earlier reservation (spec §9.2 step 2); the decision's cost
        // grows with containers x nodes, so a large one runs off the event loop
        PodSpec pod = call.pod;
        long pairs = (long) (pod.containers().size() + pod.initContainers().size()) * Math.max(1, call.requested);
        NodeView own = previous.orElse(null);
        // the state's log of changed views lets the decision redo only the nodes changed since its shape's last call;
        // with the pod's earlier reservation taken out, one view is this call's own, which no log covers: all nodes
        ViewSource source = own == null ? views
                : ViewSource.of(name -> own.name().equals(name) ? own : state.node(name));
        return Stages.offLoopIf(pairs > INLINE_DECISION_PAIRS, () -> decider.decide(pod, call.nodeNames, source,
                        quotas))
                .compose(decision -> reserveDecided(call, decision));
    }

    private Future<FilterOutcome> reserveDecided(Call call, FilterDecision decision) {
        if (decision instanceof FilterDecision.Failed f) {
            afterAnswer(call.key, () -> events.filteringError(call.key, f.message()));
            return Future.succeededFuture(new FilterOutcome.Failed(f.message(), DecisionFailure.INVALID_REQUEST, 0));
        }
        if (decision instanceof FilterDecision.NoFit n) {
            afterAnswer(call.key, () -> events.filteringFailed(call.key, n.rejected(), call.requested));
            return Future.succeededFuture(new FilterOutcome.NoFit(n.rejected(), DecisionFailure.NO_FIT, 0));
        }
        if (!(decision instanceof FilterDecision.Fits fits)) {
            return Future.succeededFuture(new FilterOutcome.PassThrough());
        }
        return reserveRanked(call, fits, 0, new LinkedHashMap<>(fits.rejected()));
    }

    private Future<FilterOutcome> reserveRanked(Call call, FilterDecision.Fits fits, int attempt,
                                                Map<String, NodeRejection> failed) {
        Candidate candidate = fits.ranked().get(attempt);
        long now = clock.millis();
        long deadline = now + config.reservationTtl().toMillis();
        PodSpec pod = call.pod;
        return quotaReservations.reserve(pod, candidate, now, deadline)
                .compose(quotaOk -> {
                    if (!quotaOk) {
                        fits.ranked().forEach(c -> failed.put(c.node(), NodeReason.QUOTA_EXCEEDED));
                        return noFit(call, failed, DecisionFailure.QUOTA_EXCEEDED);
                    }
                    PodRef ref = new PodRef(pod.uid(), pod.namespace(), pod.name());
                    return Stages.onContext(state.reserve(candidate.node(), ref, candidate.allocation(), now, deadline))
                            .timeout(config.callTimeout().toMillis(), TimeUnit.MILLISECONDS)
                            .compose(outcome -> {
                                if (outcome instanceof ReserveOutcome.Reserved) {
                                    return annotate(call, candidate, fits, true);
                                }
                                if (outcome instanceof ReserveOutcome.AlreadyBound bound) {
                                    return annotate(call, keptBinding(candidate, bound.allocation()), fits, false);
                                }
                                failed.put(candidate.node(), NodeReason.RESERVATION_CONFLICT);
                                call.conflicts++;
                                int next = attempt + 1;
                                if (next < Math.min(config.reserveAttempts(), fits.ranked().size())) {
                                    return reserveRanked(call, fits, next, failed);
                                }
                                return quotaReservations.release(pod)
                                        .compose(x -> noFit(call, failed, DecisionFailure.RESERVATION_CONFLICT));
                            });
                });
    }

    private Future<FilterOutcome> noFit(Call call, Map<String, NodeRejection> failed, DecisionFailure cause) {
        afterAnswer(call.key, () -> events.filteringFailed(call.key, failed, call.requested));
        return Future.succeededFuture(new FilterOutcome.NoFit(failed, cause, call.conflicts));
    }

    /**
     * The pod is bound on the chosen node already: a bind confirmed it and was interrupted before the Binding (its
     * replica died, or it failed past the confirmation), and kube-scheduler is filtering it again. The binding keeps
     * the devices it was admitted with, so the pod is annotated with those, not with what this decision chose:
     * annotating other devices would move the charge there without the capacity rule (ingest records annotated
     * bindings as facts) and over-commit a card. MIG instances are kept only when the allocations agree; otherwise
     * the pod keeps the MIG annotation of the filter that made the binding (the patch leaves it).
     */
    static Candidate keptBinding(Candidate decided, PodAllocation bound) {
        if (decided.allocation().sameDevices(bound)) {
            return decided;
        }
        return new Candidate(decided.node(), decided.score(), bound, List.of());
    }

    /**
     * Writes the HAMi annotations before answering (the durable record); on failure undoes the reservation this
     * filter made ({@code undoOnFailure}; a binding found in place is left to the pod's next decision).
     */
    private Future<FilterOutcome> annotate(Call call, Candidate chosen, FilterDecision.Fits fits,
                                           boolean undoOnFailure) {
        PodSpec pod = call.pod;
        Map<String, String> annotations = FilterAnnotations.annotations(chosen, clock.millis() / 1000);
        return Stages.onContext(pods.patchFilterAnnotations(call.key, annotations, FilterAnnotations.labels(chosen)))
                .compose(write -> {
                    if (!write.ok()) {
                        Future<Boolean> undo = undoOnFailure
                                ? Stages.onContext(state.releaseReservation(chosen.node(), pod.uid()))
                                : Future.succeededFuture(false);
                        return undo
                                .otherwiseEmpty()
                                .compose(x -> quotaReservations.release(pod))
                                .map(x -> new FilterOutcome.Failed("failed to annotate pod " + pod.namespace() + "/"
                                        + pod.name() + ": " + write.message(), DecisionFailure.ANNOTATE_FAILED,
                                        call.conflicts));
                    }
                    afterAnswer(call.key, () -> events.filteringSucceeded(call.key, chosen.node(), call.requested,
                            scored(fits.ranked())));
                    LOG.info("filter {}/{}: {} of {} nodes fit, chose {}", pod.namespace(), pod.name(),
                            fits.ranked().size(), call.requested, chosen.node());
                    return Future.succeededFuture(new FilterOutcome.Placed(chosen.node(), call.conflicts));
                });
    }

    /**
     * Runs {@code event} on a worker, beside the answer this task writes: an Event's text (FilteringSucceed lists every
     * fitting node's score, FilteringFailed every rejected node) is for people, not for kube-scheduler, who waits for
     * the answer, and its cost grows with the nodes. Nothing is built when the sink would drop the Event at once
     * ({@link EventSink#admits}: no rate token, too many writes in flight). Outside Vert.x (unit tests) it runs at once.
     */
    private void afterAnswer(PodAddress pod, Runnable event) {
        if (!events.admits(pod)) {
            return;
        }
        Context context = Vertx.currentContext();
        if (context == null) {
            event.run();
        } else {
            context.executeBlocking(() -> {
                event.run();
                return null;
            }, false).onFailure(e -> LOG.warn("filter event not recorded: {}", e.toString()));
        }
    }

    /** The ranked candidates as the Event lists them, read in place (no list of thousands of copies). */
    private static List<ScoredNode> scored(List<Candidate> ranked) {
        return new AbstractList<>() {
            @Override
            public ScoredNode get(int index) {
                Candidate c = ranked.get(index);
                return new ScoredNode(c.node(), c.score());
            }

            @Override
            public int size() {
                return ranked.size();
            }
        };
    }

    /** One filter call: the pod, its candidates, and the reservations refused so far (touched on one context). */
    private static final class Call {
        final PodSpec pod;
        final PodAddress key;
        final List<String> nodeNames;
        final int requested;
        int conflicts;

        Call(PodSpec pod, List<String> nodeNames) {
            this.pod = pod;
            this.key = new PodAddress(pod.namespace(), pod.name(), pod.uid());
            this.nodeNames = nodeNames;
            this.requested = nodeNames == null ? 0 : nodeNames.size();
        }
    }
}
