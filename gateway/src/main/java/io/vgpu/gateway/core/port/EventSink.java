package io.vgpu.gateway.core.port;

import io.vgpu.gateway.core.reason.NodeRejection;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Records Kubernetes Events on pods (spec §14): the "why is my pod pending" answer. Fire-and-forget: the
 * caller never waits for the write and never fails because of it.
 *
 * <p>Contract for implementations: {@link #record} returns at once without blocking; when the sink is
 * overloaded (too many writes in flight) it drops the event rather than queue it; the stage completes with
 * true when the Event was written and false when it was dropped or refused, and never completes
 * exceptionally. The source component is the scheduler name.
 */
public interface EventSink {

    /** A sink that records nothing (simulation, tests): it admits nothing, so no Event text is ever built for it. */
    EventSink NONE = new EventSink() {
        @Override
        public CompletionStage<Boolean> record(PodAddress pod, SchedulerEvent event) {
            return CompletableFuture.completedFuture(false);
        }

        @Override
        public boolean admits(PodAddress pod) {
            return false;
        }
    };

    /**
     * Writes one Event whose involvedObject is {@code pod}.
     *
     * @return true when written, false when dropped or refused
     */
    CompletionStage<Boolean> record(PodAddress pod, SchedulerEvent event);

    /**
     * Whether an Event on {@code pod} recorded now would be written, not dropped at once for load (too many writes in flight, no
     * rate token); a sink that answers false counts the event as dropped. Callers ask before building an Event whose
     * text costs much (a filter's lists thousands of nodes): the sink's answer may change before the write, which
     * then drops it as usual. Default: true.
     */
    default boolean admits(PodAddress pod) {
        return true;
    }

    /** {@code FilteringSucceed}; see {@link SchedulerEvent#filteringSucceeded}. */
    default void filteringSucceeded(PodAddress pod, String chosen, int requestedNodes, List<ScoredNode> rankedBestFirst) {
        record(pod, SchedulerEvent.filteringSucceeded(chosen, requestedNodes, rankedBestFirst));
    }

    /** {@code FilteringFailed} per reason word plus the summary; see {@link SchedulerEvent#filteringFailed}. */
    default void filteringFailed(PodAddress pod, Map<String, NodeRejection> rejected, int requestedNodes) {
        SchedulerEvent.filteringFailed(rejected, requestedNodes).forEach(e -> record(pod, e));
    }

    /** {@code FilteringFailed} with an error text. */
    default void filteringError(PodAddress pod, String error) {
        record(pod, SchedulerEvent.filteringError(error));
    }

    /** {@code BindingSucceed}. */
    default void bindingSucceeded(PodAddress pod, String node) {
        record(pod, SchedulerEvent.bindingSucceeded(node, pod.namespace(), pod.name()));
    }

    /** {@code BindingFailed} with an error text. */
    default void bindingFailed(PodAddress pod, String error) {
        record(pod, SchedulerEvent.bindingFailed(error));
    }
}
