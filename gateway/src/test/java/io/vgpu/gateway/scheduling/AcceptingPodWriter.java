package io.vgpu.gateway.scheduling;

import io.vgpu.gateway.core.port.BindingOutcome;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.PodAddress;
import io.vgpu.gateway.core.port.PodWriter;
import io.vgpu.gateway.core.port.WriteOutcome;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** A pod writer whose every write succeeds; keeps the last filter annotations written. Its live reads find nothing. */
final class AcceptingPodWriter implements PodWriter {

    private volatile Map<String, String> lastFilterAnnotations = Map.of();

    /** The annotations of the last filter patch (empty before the first). */
    Map<String, String> lastFilterAnnotations() {
        return lastFilterAnnotations;
    }

    @Override
    public CompletionStage<WriteOutcome> patchFilterAnnotations(PodAddress pod, Map<String, String> annotations,
                                                                Map<String, String> labels) {
        lastFilterAnnotations = Map.copyOf(annotations);
        return CompletableFuture.completedFuture(new WriteOutcome.Written());
    }

    @Override
    public CompletionStage<WriteOutcome> patchBindPhase(PodAddress pod, String phase, long bindTimeSeconds) {
        return CompletableFuture.completedFuture(new WriteOutcome.Written());
    }

    @Override
    public CompletionStage<BindingOutcome> bind(PodAddress pod, String node) {
        return CompletableFuture.completedFuture(new BindingOutcome.Bound(false));
    }

    @Override
    public CompletionStage<Optional<ObservedPod>> readPod(PodAddress pod) {
        return CompletableFuture.completedFuture(Optional.empty());
    }
}
