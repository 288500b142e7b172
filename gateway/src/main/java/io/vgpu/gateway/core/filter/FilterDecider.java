package io.vgpu.gateway.core.filter;

import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.fit.PairScores;
import io.vgpu.gateway.core.fit.ScoringWeights;
import io.vgpu.gateway.core.quota.QuotaGate;
import io.vgpu.gateway.core.reason.NodeReason;
import io.vgpu.gateway.core.reason.NodeRejection;
import io.vgpu.gateway.core.request.PodRequests;
import io.vgpu.gateway.core.request.RequestDeriver;
import io.vgpu.gateway.core.score.NodeDevices;
import io.vgpu.gateway.core.score.NodeScorer;
import io.vgpu.gateway.core.score.NodeVerdict;
import io.vgpu.gateway.core.score.PodDemand;
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.codec.NodeRegistration;
import io.vgpu.state.model.ContainerRequest;
import io.vgpu.state.model.DeviceUsage;
import io.vgpu.state.model.NodeView;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.Vendor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The {@code /filter} decision (spec §9.2 cache mode, §9.7 simulation mode) as a pure function over
 * node snapshots: which requested nodes the pod fits on, ranked as HAMi ranks them, with the
 * allocation each would get. Reserving the winner and patching the pod are the caller's steps.
 *
 * <p>Contract: the snapshots handed in must NOT contain the pod's own earlier reservation (HAMi drops
 * it first, §9.2 step 2; the caller's state does the same), and must be immutable: a changed node must come as a
 * new {@link NodeView} object. Each node's outcome is kept per pod shape ({@link VerdictCache}) and reused while
 * the node's view is the same object; pods whose namespace enforces a quota are always scored afresh (their
 * verdicts depend on the namespace's usage too), and so are simulation-mode calls (their views are new per call).
 * Thread-safe; no I/O, no clock.
 */
public final class FilterDecider {

    private static final ContainerRequest NO_GPU = new ContainerRequest(0, Vendor.NVIDIA, 0,
            ContainerRequest.NO_PERCENTAGE, 0);

    private final FilterConfig config;
    private final RequestDeriver deriver;
    /** Null: every node is scored on every call. */
    private final VerdictCache verdicts;

    /** @param config resource names, defaults and default policies */
    public FilterDecider(FilterConfig config) {
        this(config, new VerdictCache(VerdictCache.DEFAULT_SHAPES, VerdictCache.DEFAULT_NODES_PER_SHAPE));
    }

    /**
     * @param config   resource names, defaults and default policies
     * @param verdicts where node outcomes are kept between calls; null scores every node on every call
     */
    FilterDecider(FilterConfig config, VerdictCache verdicts) {
        this.config = config;
        this.deriver = new RequestDeriver(config.nvidia());
        this.verdicts = verdicts;
    }

    /** The configuration this decider applies. */
    public FilterConfig config() {
        return config;
    }

    /**
     * Cache mode (kube-scheduler sends {@code NodeNames}): scores every requested node on the caller's
     * snapshot.
     *
     * @param pod       the pod being scheduled
     * @param nodeNames the nodes kube-scheduler found feasible (null is treated as none)
     * @param nodes     snapshot lookup; null for a node without registered GPUs
     * @param quota     the namespace quota gate Fit consults
     */
    public FilterDecision decide(PodSpec pod, List<String> nodeNames, Function<String, NodeView> nodes,
                                 QuotaGate quota) {
        return decide(pod, nodeNames, ViewSource.of(nodes), quota, true);
    }

    /**
     * Cache mode as {@link #decide(PodSpec, List, Function, QuotaGate)}, reading views from {@code views}: when it
     * keeps a log of changed views, a call that lists the same nodes as the last call of the pod's shape redoes only
     * the nodes changed since ({@link RankState}).
     */
    public FilterDecision decide(PodSpec pod, List<String> nodeNames, ViewSource views, QuotaGate quota) {
        return decide(pod, nodeNames, views, quota, true);
    }

    private FilterDecision decide(PodSpec pod, List<String> nodeNames, ViewSource nodes,
                                  QuotaGate quota, boolean reuse) {
        PodRequests requests = deriver.podRequests(pod);
        if (!requests.hasAny()) {
            return new FilterDecision.PassThrough();
        }
        ScoringWeights.Parsed weights = ScoringWeights.fromPod(pod.annotations());
        if (!weights.ok()) {
            return new FilterDecision.Failed("calcScore failed " + weights.error() + " for pod " + pod.name());
        }
        // a namespace without limits: no quota check per candidate device (the same answers, without the work)
        QuotaGate gate = quota != null && !quota.enforces(pod.namespace()) ? QuotaGate.NONE : quota;
        PodDemand demand = PodDemand.of(nvidiaRequests(requests), requests.initCount(), pod.annotations(),
                pod.namespace(), config.gpuPolicy(), weights.weights(), gate);
        // with a quota gate the verdict depends on the namespace's usage as well: never reused
        VerdictCache.Verdicts kept = reuse && verdicts != null && demand.quota() == QuotaGate.NONE
                ? verdicts.forShape(DemandShape.of(demand)) : null;
        return rank(new NodeScorer(demand), kept, nodeNames == null ? List.of() : nodeNames, nodes,
                requests.initCount(), nodePolicy(pod));
    }

    /**
     * Simulation mode (kube-scheduler sends full {@code Nodes}, {@code nodeCacheCapable: false}):
     * devices come only from the given node annotations, existing usage and quota are ignored.
     *
     * @param pod             the pod being scheduled
     * @param nodeAnnotations annotations of each node in the request, in request order
     */
    public FilterDecision decideSimulation(PodSpec pod, Map<String, Map<String, String>> nodeAnnotations) {
        Map<String, NodeView> views = new LinkedHashMap<>();
        nodeAnnotations.forEach((name, annotations) -> views.put(name, idleView(name, annotations)));
        // the views are built for this call alone: keeping their outcomes could never pay off
        return decide(pod, List.copyOf(nodeAnnotations.keySet()), ViewSource.of(views::get), QuotaGate.NONE, false);
    }

    /** A node view built from a node's annotations alone (no usage); null when nothing is registered. */
    public static NodeView idleView(String name, Map<String, String> annotations) {
        Decoded<NodeRegistration> reg = NodeRegisterCodec.read(annotations == null ? Map.of() : annotations);
        if (!reg.isOk()) {
            return null;
        }
        List<DeviceUsage> usage = new ArrayList<>(reg.value().devices().size());
        reg.value().devices().forEach(d -> usage.add(DeviceUsage.idle(d)));
        Map<String, String> fitAnnotations = new LinkedHashMap<>();
        String cordon = annotations.get(HamiAnnotations.DEVICE_CORDON);
        if (cordon != null) {
            fitAnnotations.put(HamiAnnotations.DEVICE_CORDON, cordon);
        }
        return new NodeView(name, usage, fitAnnotations, reg.value().pairScores());
    }

    private FilterDecision rank(NodeScorer scorer, VerdictCache.Verdicts kept, List<String> nodeNames,
                                ViewSource nodes, int initCount, String nodePolicy) {
        // pair scores are read by the topology-aware policy only: building them per node is most of the cost else
        boolean pairScores = scorer.usesPairScores();
        // the mark comes before any view is read (RankState: why the answer is a full walk's)
        long mark = kept == null ? -1 : nodes.mark();
        if (mark >= 0) {
            RankState last = kept.lastRank();
            RankState now = last == null ? null : last.advance(nodeNames, mark, nodes, (at, name, view) ->
                    view == null ? null : outcome(scorer, kept, kept.lastCall(), at, name, view, pairScores, initCount));
            if (now != null) {
                kept.rememberRank(now);
                return now.decision(nodePolicy);
            }
        }
        Map<String, NodeRejection> failed = new LinkedHashMap<>();
        List<Candidate> fits = new ArrayList<>(nodeNames.size());
        // kube-scheduler lists the nodes in the same order call after call: the outcome at the same position of this
        // shape's last call is checked first, an array read instead of a second hash lookup of a freshly decoded name
        VerdictCache.Outcome[] previous = kept == null ? null : kept.lastCall();
        VerdictCache.Outcome[] seen = kept == null ? null : new VerdictCache.Outcome[nodeNames.size()];
        int position = 0;
        for (String name : nodeNames) {
            int at = position++;
            NodeView view = nodes.node(name);
            if (view == null) {
                failed.put(name, NodeReason.NODE_UNREGISTERED);
                continue;
            }
            VerdictCache.Outcome outcome = outcome(scorer, kept, previous, at, name, view, pairScores, initCount);
            if (seen != null) {
                seen[at] = outcome;
            }
            if (outcome.fit() != null) {
                fits.add(outcome.fit());
            } else {
                failed.put(name, outcome.rejection());
            }
        }
        if (kept != null) {
            kept.rememberCall(seen);
            kept.rememberRank(mark >= 0 ? RankState.of(nodes, verdicts.index(nodeNames), seen, mark) : null);
        }
        if (fits.isEmpty()) {
            return new FilterDecision.NoFit(failed);
        }
        // HAMi sorts with the node comparator and answers the LAST element; best-first is the reverse.
        // The sort is stable, so among equal scores the later node in the request wins, as in HAMi's
        // (otherwise arbitrary) order.
        List<Candidate> bestFirst = Ranking.bestFirst(fits, nodePolicy);
        return new FilterDecision.Fits(bestFirst, failed);
    }

    /**
     * The outcome kept for {@code name} from this very {@code view} (the one at position {@code at} of the shape's
     * last call {@code previous} first), else scored now and kept; with no cache ({@code kept} null), scored.
     */
    private static VerdictCache.Outcome outcome(NodeScorer scorer, VerdictCache.Verdicts kept,
                                                VerdictCache.Outcome[] previous, int at, String name, NodeView view,
                                                boolean pairScores, int initCount) {
        VerdictCache.Outcome outcome = kept == null ? null : kept.get(previous, at, name, view);
        if (outcome == null) {
            outcome = outcome(scorer.score(new NodeDevices(name, view.devices(),
                    pairScores ? new PairScores(view.pairScores()) : PairScores.NONE, view.annotations())),
                    name, view, initCount);
            if (kept != null) {
                kept.put(name, outcome);
            }
        }
        return outcome;
    }

    private static VerdictCache.Outcome outcome(NodeVerdict verdict, String name, NodeView view, int initCount) {
        if (verdict instanceof NodeVerdict.Fits f) {
            return new VerdictCache.Outcome(name, view, new Candidate(name, f.score(),
                    new PodAllocation(f.allocation(), initCount), f.migAssignments()), null);
        }
        return new VerdictCache.Outcome(name, view, null, ((NodeVerdict.Unschedulable) verdict).rejection());
    }

    private String nodePolicy(PodSpec pod) {
        String p = pod.annotation(HamiAnnotations.NODE_SCHEDULER_POLICY);
        return p == null || p.isEmpty() ? config.nodePolicy() : p;
    }

    private static List<ContainerRequest> nvidiaRequests(PodRequests requests) {
        List<ContainerRequest> out = new ArrayList<>(requests.containers().size());
        for (int i = 0; i < requests.containers().size(); i++) {
            out.add(requests.request(i, Vendor.NVIDIA).orElse(NO_GPU));
        }
        return out;
    }
}
