package io.vgpu.deviceplugin.kube;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vgpu.deviceplugin.core.port.NodeEvents;
import io.vgpu.deviceplugin.core.port.NodeInfo;
import io.vgpu.deviceplugin.core.port.NodeWatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * {@link NodeEvents} as core/v1 Events on the Node (namespace {@code default}, where {@code kubectl
 * describe node} finds them), source {@value #COMPONENT}. Written on the kubernetes-ops executor; a write
 * that fails is logged once per reason and otherwise ignored. Needs {@code create} on events.
 */
public final class FabricNodeEvents implements NodeEvents {

    /** The reporting component. */
    public static final String COMPONENT = "vgpu-device-plugin";

    private static final Logger LOG = LoggerFactory.getLogger(FabricNodeEvents.class);

    private final KubernetesClient client;
    private final String node;
    private final NodeWatch nodes;
    private final KubeCalls calls;
    private final Clock clock;

    /**
     * @param nodes where the node's UID comes from (an Event without it still shows on the node)
     */
    public FabricNodeEvents(KubernetesClient client, String node, NodeWatch nodes, Executor executor, Duration timeout,
                            Clock clock) {
        this.client = Objects.requireNonNull(client, "client");
        this.node = Objects.requireNonNull(node, "node");
        this.nodes = Objects.requireNonNull(nodes, "nodes");
        this.calls = new KubeCalls(executor, timeout);
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public void warning(String reason, String message) {
        record("Warning", reason, message);
    }

    @Override
    public void normal(String reason, String message) {
        record("Normal", reason, message);
    }

    private void record(String type, String reason, String message) {
        String now = Instant.now(clock).truncatedTo(ChronoUnit.SECONDS).toString();
        Event event = new EventBuilder()
                .withNewMetadata().withGenerateName(node + ".").withNamespace("default").endMetadata()
                .withNewInvolvedObject().withApiVersion("v1").withKind("Node").withName(node)
                .withUid(nodes.current().map(NodeInfo::uid).orElse(null)).endInvolvedObject()
                .withType(type).withReason(reason).withMessage(message.length() > 1024 ? message.substring(0, 1021) + "..." : message)
                .withNewSource().withComponent(COMPONENT).withHost(node).endSource()
                .withReportingComponent(COMPONENT).withReportingInstance(node)
                .withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
                .build();
        calls.call(() -> client.v1().events().inNamespace("default").resource(event).create()).whenComplete((ok, e) -> {
            if (e != null) {
                LOG.warn("Event {} on node {} not written: {}", reason, node, e.getMessage());
            }
        });
    }
}
