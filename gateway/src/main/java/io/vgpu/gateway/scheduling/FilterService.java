package io.vgpu.gateway.scheduling;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vgpu.gateway.core.KubeIdentity;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.filter.Candidate;
import io.vgpu.gateway.core.filter.FilterAnnotations;
import io.vgpu.gateway.core.filter.FilterDecider;
import io.vgpu.gateway.core.filter.FilterDecision;
import io.vgpu.gateway.core.port.EventSink;
import io.vgpu.gateway.core.port.PodKey;
import io.vgpu.gateway.core.port.PodWriter;
import io.vgpu.gateway.core.port.ScoredNode;
import io.vgpu.gateway.core.quota.QuotaBook;
import io.vgpu.gateway.core.reason.NodeReason;
import io.vgpu.gateway.core.reason.NodeRejection;
import io.vgpu.gateway.extender.ExtenderArgs;
import io.vgpu.gateway.extender.ExtenderFilterResult;
import io.vgpu.gateway.extender.ExtenderMetrics;
import io.vgpu.gateway.extender.FilterResponses;
import io.vgpu.gateway.json.GoFields;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.DeviceGrant;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.NodeView;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodRef;
import io.vgpu.state.model.QuotaOutcome;
import io.vgpu.state.model.QuotaState;
import io.vgpu.state.model.ReserveOutcome;
import io.vgpu.state.model.UsageAccounting;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The {@code /filter} verb (spec §9, DESIGN.md §3 "Optimistic filter"): decide on the local snapshot,
 * reserve the best node with one atomic entry processor, patch the pod's HAMi annotations, then answer.
 * A refused reservation (another replica won the race) moves on to the next-best node, up to
 * {@link SchedulingConfig#reserveAttempts()}. Every expected failure is an answer with {@code Error} or
 * {@code FailedNodes}, never an exception.
 */
public final class FilterService {

    private static final Logger LOG = LoggerFactory.getLogger(FilterService.class);
    /**
     * Decisions over at most this many (container, node) pairs run on the event loop (about a millisecond: a
     * one-container pod over 4,096 nodes); larger ones on a worker, so that no request holds the loop for long.
     */
    private static final long INLINE_DECISION_PAIRS = 4_096;
    /** Rejection texts of at most this many nodes are counted on the event loop. */
    private static final int INLINE_REJECTED_NODES = 1_024;

    private final FilterDecider decider;
    private final ClusterState state;
    private final QuotaBook quotas;
    private final PodWriter pods;
    private final EventSink events;
    private final SchedulingConfig config;
    private final Clock clock;
    private final ExtenderMetrics metrics;

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
        this(decider, state, quotas, pods, events, config, clock, ExtenderMetrics.NONE);
    }

    /** As above, counting refused reservations in {@code metrics}. */
    public FilterService(FilterDecider decider, ClusterState state, QuotaBook quotas, PodWriter pods,
                         EventSink events, SchedulingConfig config, Clock clock, ExtenderMetrics metrics) {
        this.metrics = metrics;
        this.decider = decider;
        this.state = state;
        this.quotas = quotas;
        this.pods = pods;
        this.events = events;
        this.config = config;
        this.clock = clock;
    }

    /** Answers one filter request. The future never fails. */
    public Future<ExtenderFilterResult> filter(ExtenderArgs args) {
        try {
            if (args.pod() == null) {
                metrics.filterFailed(DecisionFailure.FILTER_INVALID);
                return Future.succeededFuture(ExtenderFilterResult.error("extender args missing pod"));
            }
            if (args.simulationMode()) {
                return Stages.offLoop(() -> simulate(args));
            }
            PodSpec pod = args.pod();
            String invalid = invalidIdentity(pod);
            if (invalid != null) {
                // names no pod that can exist: nothing to reserve, annotate or report an Event on
                LOG.warn("filter refused: {}", invalid);
                metrics.filterFailed(DecisionFailure.FILTER_INVALID);
                return Future.succeededFuture(ExtenderFilterResult.error(invalid));
            }
            return previousNode(pod)
                    .compose(previous -> decideAndReserve(pod, args.nodeNames(), previous))
                    .recover(e -> {
                        LOG.warn("filter {}/{}: {}", pod.namespace(), pod.name(), e.toString());
                        metrics.filterFailed(DecisionFailure.reasonOf(e));
                        return Future.succeededFuture(ExtenderFilterResult.error(message(e)));
                    });
        } catch (RuntimeException e) {
            LOG.error("filter failed unexpectedly", e);
            metrics.filterFailed(DecisionFailure.ERROR);
            return Future.succeededFuture(ExtenderFilterResult.error(message(e)));
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

    private ExtenderFilterResult simulate(ExtenderArgs args) {
        Map<String, Map<String, String>> annotations = new LinkedHashMap<>();
        args.nodes().forEach((name, node) -> {
            Map<String, String> a = new LinkedHashMap<>();
            JsonNode meta = node.isObject() ? GoFields.get(node, "metadata") : null;
            JsonNode given = meta != null && meta.isObject() ? GoFields.get(meta, "annotations") : null;
            if (given != null && given.isObject()) {
                given.properties().forEach(f -> a.put(f.getKey(), f.getValue().asText()));
            }
            annotations.put(name, a);
        });
        return FilterResponses.simulationMode(decider.decideSimulation(args.pod(), annotations), args.nodes());
    }

    /**
     * Where this pod holds a reservation from an earlier filter, if anywhere. Only a pod that a filter annotated can
     * hold one, so only such a pod pays the round trip to the pod index (a first filter, nearly every call, makes
     * no shared-state call but the reservation): a filter reserves, then annotates the pod before it answers, and
     * undoes the reservation when the annotation fails; kube-scheduler filters a pod again only after that answer
     * (and a back-off), by then its copy of the pod carries the annotation. Should a copy still lack it (the answer
     * was lost with a dying replica), the pod is decided with its earlier reservation counted against it (a stricter
     * answer, never a double grant). Either way the new reservation releases the earlier entry (the store does, through
     * the pod index), so a pod never holds two.
     */
    private Future<Optional<String>> previousNode(PodSpec pod) {
        if (pod.uid().isEmpty() || pod.annotation(HamiAnnotations.VGPU_NODE) == null) {
            return Future.succeededFuture(Optional.empty());
        }
        return Stages.onContext(state.podNode(pod.uid()))
                .timeout(config.callTimeout().toMillis(), TimeUnit.MILLISECONDS);
    }

    private Future<ExtenderFilterResult> decideAndReserve(PodSpec pod, List<String> nodeNames,
                                                          Optional<String> previous) {
        // a re-filtered pod never competes with its own earlier reservation (spec §9.2 step 2); the decision's cost
        // grows with containers x nodes, so a large one runs off the event loop
        long pairs = (long) (pod.containers().size() + pod.initContainers().size())
                * Math.max(1, nodeNames == null ? 0 : nodeNames.size());
        return Stages.offLoopIf(pairs > INLINE_DECISION_PAIRS, () -> decider.decide(pod, nodeNames,
                        name -> viewWithout(name, pod.uid(), previous), quotas))
                .compose(decision -> reserveDecided(pod, nodeNames, previous, decision));
    }

    private Future<ExtenderFilterResult> reserveDecided(PodSpec pod, List<String> nodeNames,
                                                        Optional<String> previous, FilterDecision decision) {
        PodKey key = new PodKey(pod.namespace(), pod.name(), pod.uid());
        int requested = nodeNames == null ? 0 : nodeNames.size();
        if (decision instanceof FilterDecision.Failed f) {
            metrics.filterFailed(DecisionFailure.FILTER_INVALID);
            afterAnswer(() -> events.filteringError(key, f.message()));
        } else if (decision instanceof FilterDecision.NoFit n) {
            afterAnswer(() -> events.filteringFailed(key, n.rejected(), requested));
            return noFit(DecisionFailure.FILTER_NO_FIT, n.rejected())
                    .map(x -> FilterResponses.cacheMode(decision, nodeNames, null));
        }
        if (!(decision instanceof FilterDecision.Fits fits)) {
            return Future.succeededFuture(FilterResponses.cacheMode(decision, nodeNames, null));
        }
        return reserveRanked(pod, key, fits, 0, new LinkedHashMap<>(fits.rejected()), requested);
    }

    private NodeView viewWithout(String name, String podUid, Optional<String> previous) {
        NodeView view = state.node(name);
        if (view == null || previous.isEmpty() || !previous.get().equals(name)) {
            return view;
        }
        NodeState node = state.nodeState(name);
        return node == null ? view
                : new NodeView(name, node.usageWithout(podUid), view.annotations(), view.pairScores());
    }

    private Future<ExtenderFilterResult> reserveRanked(PodSpec pod, PodKey key, FilterDecision.Fits fits, int attempt,
                                                       Map<String, NodeRejection> failed, int requested) {
        Candidate candidate = fits.ranked().get(attempt);
        long now = clock.millis();
        long deadline = now + config.reservationTtl().toMillis();
        PodRef ref = new PodRef(pod.uid(), pod.namespace(), pod.name());
        return reserveQuota(pod, candidate, now, deadline)
                .compose(quotaOk -> {
                    if (!quotaOk) {
                        fits.ranked().forEach(c -> failed.put(c.node(), NodeReason.QUOTA_EXCEEDED));
                        afterAnswer(() -> events.filteringFailed(key, failed, requested));
                        return noFit(DecisionFailure.FILTER_QUOTA, failed)
                                .map(x -> FilterResponses.cacheMode(new FilterDecision.NoFit(failed), null, null));
                    }
                    return Stages.onContext(state.reserve(candidate.node(), ref, candidate.allocation(), now, deadline))
                            .timeout(config.callTimeout().toMillis(), TimeUnit.MILLISECONDS)
                            .compose(outcome -> {
                                if (outcome instanceof ReserveOutcome.Reserved) {
                                    return annotate(pod, key, candidate, fits, requested, true);
                                }
                                if (outcome instanceof ReserveOutcome.AlreadyBound bound) {
                                    return annotate(pod, key, keptBinding(candidate, bound.allocation()), fits,
                                            requested, false);
                                }
                                failed.put(candidate.node(), NodeReason.RESERVATION_CONFLICT);
                                metrics.reserveConflict();
                                int next = attempt + 1;
                                if (next < Math.min(config.reserveAttempts(), fits.ranked().size())) {
                                    return reserveRanked(pod, key, fits, next, failed, requested);
                                }
                                afterAnswer(() -> events.filteringFailed(key, failed, requested));
                                return noFit(DecisionFailure.FILTER_CONFLICT, failed)
                                        .compose(x -> releaseQuota(pod)).map(x ->
                                        FilterResponses.cacheMode(new FilterDecision.NoFit(failed), null, null));
                            });
                });
    }

    /**
     * DESIGN.md §3 "Quota": the namespace's charge is reserved in the shared quota map before the node,
     * so that replicas deciding for one namespace at once cannot exceed its quota together. Only
     * namespaces with a ResourceQuota limit pay this extra hop.
     *
     * @return false when the namespace's quota refuses the pod
     */
    private Future<Boolean> reserveQuota(PodSpec pod, Candidate candidate, long now, long deadline) {
        if (!quotaLimited(pod.namespace())) {
            return Future.succeededFuture(true);
        }
        List<DeviceGrant> grants = candidate.allocation().grants();
        return Stages.onContext(state.reserveQuota(pod.namespace(), pod.uid(), UsageAccounting.totalMem(grants),
                        UsageAccounting.totalCores(grants), now, deadline))
                .timeout(config.callTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .map(outcome -> outcome instanceof QuotaOutcome.Reserved);
    }

    private Future<Void> releaseQuota(PodSpec pod) {
        if (!quotaLimited(pod.namespace())) {
            return Future.succeededFuture();
        }
        return Stages.onContext(state.releaseQuota(pod.namespace(), pod.uid())).otherwiseEmpty().mapEmpty();
    }

    private boolean quotaLimited(String namespace) {
        QuotaState q = state.quota(namespace);
        return q != null && !q.limits().none();
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
        if (decided.allocation().equals(bound)) {
            return decided;
        }
        return new Candidate(decided.node(), decided.score(), bound, List.of());
    }

    /**
     * Writes the HAMi annotations before answering (the durable record); on failure undoes the reservation this
     * filter made ({@code undoOnFailure}; a binding found in place is left to the pod's next decision).
     */
    private Future<ExtenderFilterResult> annotate(PodSpec pod, PodKey key, Candidate chosen, FilterDecision.Fits fits,
                                                  int requested, boolean undoOnFailure) {
        Map<String, String> annotations = FilterAnnotations.annotations(chosen, clock.millis() / 1000);
        return Stages.onContext(pods.patchFilterAnnotations(key, annotations, FilterAnnotations.labels(chosen)))
                .compose(write -> {
                    if (!write.ok()) {
                        metrics.filterFailed(DecisionFailure.FILTER_ANNOTATE);
                        Future<Boolean> undo = undoOnFailure ? Stages.onContext(state.release(chosen.node(), pod.uid()))
                                : Future.succeededFuture(false);
                        return undo
                                .otherwiseEmpty()
                                .compose(x -> releaseQuota(pod))
                                .map(x -> ExtenderFilterResult.error("failed to annotate pod " + pod.namespace() + "/"
                                        + pod.name() + ": " + write.message()));
                    }
                    afterAnswer(() -> events.filteringSucceeded(key, chosen.node(), requested, ranking(fits)));
                    LOG.info("filter {}/{}: {} of {} nodes fit, chose {}", pod.namespace(), pod.name(),
                            fits.ranked().size(), requested, chosen.node());
                    return Future.succeededFuture(FilterResponses.cacheMode(fits, null, chosen.node()));
                });
    }

    /**
     * Runs {@code event} on a worker, beside the answer this task writes: an Event's text (FilteringSucceed lists every
     * fitting node's score, FilteringFailed every rejected node) is for people, not for kube-scheduler, who waits for
     * the answer, and its cost grows with the nodes. Outside Vert.x (unit tests) it runs at once.
     */
    private static void afterAnswer(Runnable event) {
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

    /**
     * Counts a filter that placed nothing, and its nodes by rejection reason (only then: off the event loop when
     * there are many), before the answer is written.
     */
    private Future<Void> noFit(String reason, Map<String, NodeRejection> rejected) {
        metrics.filterFailed(reason);
        return Stages.offLoopIf(rejected.size() > INLINE_REJECTED_NODES, () -> {
            Map<String, Integer> byLabel = new TreeMap<>();
            rejected.values().forEach(r -> r.labels().forEach(label -> byLabel.merge(label, 1, Integer::sum)));
            byLabel.forEach(metrics::nodesRejected);
            return null;
        });
    }

    private static List<ScoredNode> ranking(FilterDecision.Fits fits) {
        List<ScoredNode> out = new ArrayList<>(fits.ranked().size());
        fits.ranked().forEach(c -> out.add(new ScoredNode(c.node(), c.score())));
        return out;
    }

    static String message(Throwable e) {
        Throwable cause = e.getCause() != null && e.getMessage() == null ? e.getCause() : e;
        return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    }
}
