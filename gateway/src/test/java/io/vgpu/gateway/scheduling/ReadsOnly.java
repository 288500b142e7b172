package io.vgpu.gateway.scheduling;

import io.vgpu.gateway.core.port.BindingOutcome;
import io.vgpu.gateway.core.port.PodAddress;
import io.vgpu.gateway.core.port.PodWriter;
import io.vgpu.gateway.core.port.WriteOutcome;

import java.util.Map;
import java.util.concurrent.CompletionStage;

/** The API server as ingest sees it: only reads ({@code readPod}, {@code isGone}); ingest never writes a pod. */
interface ReadsOnly extends PodWriter {

    @Override
    default CompletionStage<WriteOutcome> patchFilterAnnotations(PodAddress pod, Map<String, String> annotations,
                                                                 Map<String, String> labels) {
        throw new UnsupportedOperationException("ingest writes no pod");
    }

    @Override
    default CompletionStage<WriteOutcome> patchBindPhase(PodAddress pod, String phase, long bindTimeSeconds) {
        throw new UnsupportedOperationException("ingest writes no pod");
    }

    @Override
    default CompletionStage<BindingOutcome> bind(PodAddress pod, String node) {
        throw new UnsupportedOperationException("ingest writes no pod");
    }
}
