package io.vgpu.gateway.core.port;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The pod writes of {@code /filter} and {@code /bind} (spec §6.2, §11.1), plus the one live read {@code /bind}
 * needs when the informer cache lags, implemented over the Kubernetes API. Every method is non-blocking: it
 * returns at once and the stage completes on a client thread (bridge it back to your context). Stages never
 * complete exceptionally: failures are outcome values. Each call has its own timeout; a timed-out write reports
 * {@link WriteOutcome.Unreachable} and may still land.
 */
public interface PodWriter {

    /**
     * Merge-patches the {@code /filter} annotations and labels into the pod, with the exact body of spec
     * §6.2 ({@code {"metadata":{"annotations":{...},"labels":{...}}}}, keys sorted). Idempotent: repeating
     * the same patch changes nothing.
     *
     * @param pod         the pod
     * @param annotations e.g. {@code FilterAnnotations.annotations(chosen, now)}
     * @param labels      e.g. {@code FilterAnnotations.labels(chosen)}; empty for none
     */
    CompletionStage<WriteOutcome> patchFilterAnnotations(PodAddress pod, Map<String, String> annotations,
                                                         Map<String, String> labels);

    /**
     * Merge-patches {@code hami.io/bind-phase=<phase>} and {@code hami.io/bind-time=<seconds>} (spec §6.2
     * bind body). Idempotent.
     *
     * @param phase           normally {@code allocating}
     * @param bindTimeSeconds Unix seconds
     */
    CompletionStage<WriteOutcome> patchBindPhase(PodAddress pod, String phase, long bindTimeSeconds);

    /**
     * Binds the pod: {@code POST pods/{name}/binding} with
     * {@code Binding{metadata:{name, uid}, target:{kind:"Node", name:node}}} (the UID, when known, makes the
     * API server refuse a re-created pod of the same name). Idempotent: a pod already bound to {@code node}
     * answers {@link BindingOutcome.Bound} with {@code alreadyBound = true}.
     */
    CompletionStage<BindingOutcome> bind(PodAddress pod, String node);

    /**
     * A live read of the pod from the API server (not the informer cache, which may lag a create or a bind made
     * moments ago), trimmed like the informers' pods; empty when the pod is gone, is another incarnation (its UID is
     * not {@code pod.uid()}, when that is known) or cannot be read. Never completes exceptionally.
     */
    CompletionStage<Optional<ObservedPod>> readPod(PodAddress pod);

    /**
     * Whether the API server says this pod incarnation is gone: the read answers 404, or the name now belongs to
     * another UID. False when the pod exists or cannot be read (unknown is not gone: callers release charges on a
     * true answer). Never completes exceptionally. The default never says gone, which only forgoes the repair of
     * charges whose pod vanished unseen; adapters over a real API override it.
     */
    default CompletionStage<Boolean> isGone(PodAddress pod) {
        return CompletableFuture.completedFuture(false);
    }

    /**
     * One live read that tells a missing pod from an unanswered read: {@link LiveRead.Found}, {@link LiveRead.Gone}
     * (as {@link #isGone}) or {@link LiveRead.Unread}. Never completes exceptionally. The default asks
     * {@link #readPod}, then {@link #isGone} when it found nothing; adapters over a real API answer with one read.
     */
    default CompletionStage<LiveRead> readLive(PodAddress pod) {
        return readPod(pod).thenCompose(read -> read.isPresent()
                ? CompletableFuture.completedFuture(new LiveRead.Found(read.get()))
                : isGone(pod).thenApply(gone -> gone ? new LiveRead.Gone() : new LiveRead.Unread("no answer")));
    }
}
