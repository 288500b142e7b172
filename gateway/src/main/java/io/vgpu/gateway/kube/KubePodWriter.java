package io.vgpu.gateway.kube;

import io.fabric8.kubernetes.api.model.Pod;
import io.vgpu.gateway.core.port.BindingOutcome;
import io.vgpu.gateway.core.port.LiveRead;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.PodAddress;
import io.vgpu.gateway.core.port.PodWriter;
import io.vgpu.gateway.core.port.WriteOutcome;
import io.vgpu.state.codec.PodPatchCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * {@link PodWriter} over the Kubernetes API: JSON merge patches with HAMi's exact bodies (spec §6.2) and the
 * {@code pods/{name}/binding} subresource. Non-blocking; every call has the client's timeout.
 */
public final class KubePodWriter implements PodWriter {

    private static final Logger LOG = LoggerFactory.getLogger(KubePodWriter.class);

    private final KubeApi api;

    /** @param api the gateway's API client */
    public KubePodWriter(KubeApi api) {
        this.api = api;
    }

    @Override
    public CompletionStage<WriteOutcome> patchFilterAnnotations(PodAddress pod, Map<String, String> annotations,
                                                                Map<String, String> labels) {
        return patch(pod, PodPatchCodec.filterPatch(annotations, labels));
    }

    @Override
    public CompletionStage<WriteOutcome> patchBindPhase(PodAddress pod, String phase, long bindTimeSeconds) {
        return patch(pod, PodPatchCodec.bindPatch(phase, bindTimeSeconds));
    }

    @Override
    public CompletionStage<BindingOutcome> bind(PodAddress pod, String node) {
        return api.post(KubePaths.binding(pod.namespace(), pod.name()), bindingBody(pod, node), KubeApi.Priority.NORMAL)
                .thenCompose(response -> {
                    if (response.ok()) {
                        return CompletableFuture.completedFuture(new BindingOutcome.Bound(false));
                    }
                    if (response.conflict()) {
                        return afterConflict(pod, node, response);
                    }
                    return CompletableFuture.completedFuture(new BindingOutcome.Failed(response.toWrite()));
                });
    }

    @Override
    public CompletionStage<Optional<ObservedPod>> readPod(PodAddress pod) {
        return readLive(pod).thenApply(read -> read instanceof LiveRead.Found found
                ? Optional.of(found.pod()) : Optional.empty());
    }

    @Override
    public CompletionStage<LiveRead> readLive(PodAddress pod) {
        return api.get(KubePaths.pod(pod.namespace(), pod.name())).thenApply(read -> {
            if (read.notFound()) {
                return new LiveRead.Gone();
            }
            Pod current = read.ok() ? api.parse(read.body(), Pod.class) : null;
            if (current == null || current.getMetadata() == null) {
                return new LiveRead.Unread(read.ok() ? "an unreadable pod body" : read.toWrite().message());
            }
            if (!pod.uid().isEmpty() && !pod.uid().equals(current.getMetadata().getUid())) {
                return new LiveRead.Gone();
            }
            return new LiveRead.Found(KubeObjects.pod(current));
        });
    }

    @Override
    public CompletionStage<Boolean> isGone(PodAddress pod) {
        return readLive(pod).thenApply(read -> read instanceof LiveRead.Gone);
    }

    /** A 409: the pod may already be bound (a retried bind), to this node or another one. */
    private CompletionStage<BindingOutcome> afterConflict(PodAddress pod, String node, ApiResponse conflict) {
        return api.get(KubePaths.pod(pod.namespace(), pod.name())).thenApply(read -> {
            Pod current = read.ok() ? api.parse(read.body(), Pod.class) : null;
            String boundTo = current == null || current.getSpec() == null ? null : current.getSpec().getNodeName();
            boolean sameIncarnation = current != null && (pod.uid().isEmpty()
                    || pod.uid().equals(current.getMetadata().getUid()));
            if (boundTo == null || boundTo.isEmpty() || !sameIncarnation) {
                return new BindingOutcome.Failed(conflict.toWrite());
            }
            if (boundTo.equals(node)) {
                LOG.debug("pod {} already bound to {}", pod, node);
                return new BindingOutcome.Bound(true);
            }
            return new BindingOutcome.BoundElsewhere(boundTo, conflict.error());
        });
    }

    private CompletionStage<WriteOutcome> patch(PodAddress pod, String body) {
        return api.mergePatch(KubePaths.pod(pod.namespace(), pod.name()), body).thenApply(ApiResponse::toWrite);
    }

    /** {@code {"apiVersion":"v1","kind":"Binding","metadata":{...},"target":{"apiVersion":"v1","kind":"Node","name":...}}}. */
    static String bindingBody(PodAddress pod, String node) {
        StringBuilder out = new StringBuilder(200).append("{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":")
                .append(PodPatchCodec.quote(pod.name())).append(",\"namespace\":").append(PodPatchCodec.quote(pod.namespace()));
        if (!pod.uid().isEmpty()) {
            out.append(",\"uid\":").append(PodPatchCodec.quote(pod.uid()));
        }
        return out.append("},\"target\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"name\":")
                .append(PodPatchCodec.quote(node)).append("}}").toString();
    }
}
