package io.vgpu.gateway.e2e;

import io.fabric8.kubernetes.api.model.Pod;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.PodCharge;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.vgpu.gateway.e2e.E2eCluster.gpu;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /bind} after the filter's reservation expired ({@code VGPU_RESERVATION_TTL=1s}, DESIGN.md §3): the bind
 * re-reserves the recorded allocation under the capacity rule when the card is still free, and answers
 * {@code Error} (taking nothing: no charge, no lock) when the devices were taken meanwhile.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ExpiredReservationTest {

    private static final String NS = "expired";

    @RegisterExtension
    static final E2eGateway GATEWAY = new E2eGateway("VGPU_RESERVATION_TTL", "1s");

    private static E2eCluster cluster;

    @BeforeAll
    static void cluster() {
        cluster = GATEWAY.cluster();
    }

    @Test
    void aBindAfterTheReservationExpiredReReservesWhenTheCardIsStillFree() {
        String node = "expired-free";
        cluster.registeredNode(node, gpu("GPU-expired-free", 0, 32768));
        Pod p = filtered("free-pod", node);
        pastTheReservationDeadline(node, p);

        assertThat(cluster.bind(p, node).body()).isEqualTo("{\"Error\":\"\"}");

        assertThat(cluster.nodeState(node).charge(p.getMetadata().getUid())).isInstanceOf(PodCharge.Bound.class);
        assertThat(cluster.pod(p).getSpec().getNodeName()).isEqualTo(node);
        cluster.pluginAllocates(node, p);
    }

    @Test
    void aBindAfterTheReservationExpiredAndTheCardWasTakenIsRefusedAndTakesNothing() {
        String node = "expired-taken";
        cluster.registeredNode(node, gpu("GPU-expired-taken", 0, 32768));
        Pod p = filtered("late-pod", node);
        pastTheReservationDeadline(node, p);
        // meanwhile another scheduler's pod was bound to the same card (the informers charge it as a fact)
        Pod other = E2eCluster.pod(NS, "other-pod", "20000").editMetadata()
                .addToAnnotations(Map.of(HamiAnnotations.VGPU_NODE, node,
                        HamiAnnotations.DEVICES_ALLOCATED, "GPU-expired-taken,NVIDIA,20000,0:;",
                        HamiAnnotations.BIND_PHASE, "success"))
                .addToLabels(HamiAnnotations.VGPU_NODE, node).endMetadata()
                .editSpec().withSchedulerName(E2eCluster.SCHEDULER).withNodeName(node).endSpec().build();
        String otherUid = cluster.kube().pods().inNamespace(NS).resource(other).create().getMetadata().getUid();
        cluster.eventually("the other pod is charged", () -> cluster.nodeState(node).charge(otherUid) != null);

        assertThat(cluster.bind(p, node).body()).isEqualTo("{\"Error\":\"cannot bind " + NS + "/late-pod to " + node
                + ": its reservation expired and the devices are taken\"}");

        NodeState state = cluster.nodeState(node);
        assertThat(state.charges()).containsOnlyKeys(otherUid);
        assertThat(state.lock()).isNull();
        assertThat(cluster.nodeLock(node)).isNull();
        assertThat(cluster.pod(p).getSpec().getNodeName()).isNull();
        assertThat(cluster.api().bindings(NS)).noneMatch(b -> b.pod().equals("late-pod"));
    }

    /** Waits until the deadline the gateway gave the pod's reservation has passed (the gateway reads this clock). */
    private static void pastTheReservationDeadline(String node, Pod p) {
        PodCharge charge = cluster.nodeState(node).charge(p.getMetadata().getUid());
        assertThat(charge).isInstanceOf(PodCharge.Reserved.class);
        long deadline = ((PodCharge.Reserved) charge).deadlineMillis();
        cluster.eventually("the reservation's deadline has passed", () -> System.currentTimeMillis() > deadline);
    }

    private static Pod filtered(String name, String node) {
        Pod p = cluster.admit(NS, name, "20000");
        assertThat(cluster.filter(p, node).json().path("NodeNames").path(0).asText()).isEqualTo(node);
        assertThat(cluster.nodeState(node).charge(p.getMetadata().getUid())).isInstanceOf(PodCharge.Reserved.class);
        return cluster.pod(p);
    }
}
