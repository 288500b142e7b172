package io.vgpu.gateway.scheduling;

import io.vertx.core.Future;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.NodeView;

import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A re-filtered pod's earlier reservation, for {@link FilterService}: a pod never competes with its own earlier
 * reservation (spec §9.2 step 2), so the node holding it is scored without it. Nearly every filter is a first one and
 * makes no call here.
 */
final class EarlierReservation {

    private final ClusterState state;
    private final SchedulingConfig config;

    EarlierReservation(ClusterState state, SchedulingConfig config) {
        this.state = state;
        this.config = config;
    }

    /** The node holding {@code pod}'s earlier reservation as scored without it, or empty when it holds none. */
    Future<Optional<NodeView>> scoredWithout(PodSpec pod) {
        return node(pod).compose(previous -> usageWithout(pod, previous));
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
    private Future<Optional<String>> node(PodSpec pod) {
        if (pod.uid().isEmpty() || pod.annotation(HamiAnnotations.VGPU_NODE) == null) {
            return Future.succeededFuture(Optional.empty());
        }
        return Stages.onContext(state.podNode(pod.uid()))
                .timeout(config.callTimeout().toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * The node holding the pod's earlier reservation, as scored without it: its full state is read from its key's
     * owner (only a re-filtered pod pays this hop; replicas hold only usage summaries).
     */
    private Future<Optional<NodeView>> usageWithout(PodSpec pod, Optional<String> previous) {
        if (previous.isEmpty() || state.node(previous.get()) == null) {
            return Future.succeededFuture(Optional.empty());
        }
        String name = previous.get();
        return Stages.onContext(state.readNode(name))
                .timeout(config.callTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .map(node -> {
                    NodeView view = state.node(name);
                    return node.isEmpty() || view == null ? Optional.empty() : Optional.of(new NodeView(name,
                            node.get().usageWithout(pod.uid()), view.annotations(), view.pairScores()));
                });
    }
}
