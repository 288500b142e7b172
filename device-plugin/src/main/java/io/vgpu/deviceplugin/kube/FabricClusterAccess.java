package io.vgpu.deviceplugin.kube;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.vgpu.deviceplugin.core.cluster.NodeView;
import io.vgpu.deviceplugin.core.cluster.PodView;
import io.vgpu.deviceplugin.core.port.ClusterAccess;
import io.vgpu.state.codec.NodeLockCodec;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * {@link ClusterAccess} over fabric8. fabric8's calls block, so each runs on the given executor (a
 * small dedicated pool, never a Vert.x event loop) with a timeout; failures carry fabric8's message.
 * Pod and node patches are JSON merge patches of annotations; the lock removal carries the node's
 * resourceVersion so a concurrent change makes the API server answer 409.
 */
public final class FabricClusterAccess implements ClusterAccess {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final PatchContext MERGE = PatchContext.of(PatchType.JSON_MERGE);
    /** Events about Nodes go to {@code default}, as kubelet's and HAMi's do. */
    private static final String EVENT_NAMESPACE = "default";
    /** The Events' source component. */
    static final String EVENT_COMPONENT = "vgpu-device-plugin";

    private final KubernetesClient client;
    private final KubeCalls calls;
    private final AtomicLong lastEventNanos = new AtomicLong();

    /**
     * @param executor where the blocking fabric8 calls run (a dedicated pool)
     * @param timeout  the limit of every call
     */
    public FabricClusterAccess(KubernetesClient client, Executor executor, Duration timeout) {
        this.client = Objects.requireNonNull(client, "client");
        this.calls = new KubeCalls(executor, timeout);
    }

    @Override
    public CompletionStage<Optional<NodeView>> node(String name) {
        return call(() -> {
            Node node = client.nodes().withName(name).get();
            return Optional.ofNullable(node).map(PodViews::node);
        });
    }

    @Override
    public CompletionStage<Optional<PodView>> pod(String namespace, String name) {
        return call(() -> {
            Pod pod = client.pods().inNamespace(namespace).withName(name).get();
            return Optional.ofNullable(pod).map(PodViews::pod);
        });
    }

    @Override
    public CompletionStage<List<PodView>> podsOnNode(String node) {
        return call(() -> client.pods().inAnyNamespace().withField("spec.nodeName", node).list().getItems().stream()
                // the field selector is the API server's job; filtering again keeps the rule exact with any server
                .filter(p -> p.getSpec() != null && node.equals(p.getSpec().getNodeName()))
                .map(PodViews::pod)
                .toList());
    }

    @Override
    public CompletionStage<Void> patchPodAnnotations(String namespace, String name, Map<String, String> annotations) {
        String patch = annotationsPatch(annotations);
        return call(() -> {
            client.pods().inNamespace(namespace).withName(name).patch(MERGE, patch);
            return null;
        });
    }

    @Override
    public CompletionStage<Void> patchPodAnnotations(String namespace, String name, Map<String, String> annotations,
                                                     String resourceVersion) {
        String patch = annotationsPatch(annotations, resourceVersion);
        return call(() -> {
            client.pods().inNamespace(namespace).withName(name).patch(MERGE, patch);
            return null;
        });
    }

    @Override
    public CompletionStage<Void> removeNodeLock(String node, String resourceVersion) {
        String patch = NodeLockCodec.removePatch(resourceVersion);
        return call(() -> {
            client.nodes().withName(node).patch(MERGE, patch);
            return null;
        });
    }

    @Override
    public CompletionStage<Void> patchNodeAnnotations(String node, Map<String, String> annotations) {
        String patch = annotationsPatch(annotations);
        return call(() -> {
            client.nodes().withName(node).patch(MERGE, patch);
            return null;
        });
    }

    @Override
    public CompletionStage<Void> recordNodeEvent(String node, String type, String reason, String message) {
        return call(() -> {
            Instant now = Instant.now();
            String stamp = DateTimeFormatter.ISO_INSTANT.format(now.truncatedTo(ChronoUnit.SECONDS));
            client.v1().events().inNamespace(EVENT_NAMESPACE).resource(new EventBuilder()
                    .withNewMetadata().withName(node + "." + Long.toHexString(uniqueNanos(now)))
                    .withNamespace(EVENT_NAMESPACE).endMetadata()
                    .withNewInvolvedObject().withApiVersion("v1").withKind("Node").withName(node).endInvolvedObject()
                    .withType(type).withReason(reason).withMessage(message)
                    .withNewSource().withComponent(EVENT_COMPONENT).withHost(node).endSource()
                    .withReportingComponent(EVENT_COMPONENT).withReportingInstance(node)
                    .withFirstTimestamp(stamp).withLastTimestamp(stamp).withCount(1)
                    .build()).create();
            return null;
        });
    }

    /** Nanoseconds since the epoch, strictly increasing here (event names must not collide). */
    private long uniqueNanos(Instant now) {
        long nanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        return lastEventNanos.updateAndGet(last -> Math.max(last + 1, nanos));
    }

    /** {@code {"metadata":{"annotations":{...}}}}. */
    static String annotationsPatch(Map<String, String> annotations) {
        return annotationsPatch(annotations, null);
    }

    /** {@code {"metadata":{"annotations":{...},"resourceVersion":"<rv>"}}}; without the version when null. */
    static String annotationsPatch(Map<String, String> annotations, String resourceVersion) {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode metadata = root.putObject("metadata");
        ObjectNode a = metadata.putObject("annotations");
        annotations.forEach(a::put);
        if (resourceVersion != null) {
            metadata.put("resourceVersion", resourceVersion);
        }
        try {
            return JSON.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private <T> CompletionStage<T> call(Supplier<T> request) {
        return calls.call(request);
    }
}
