package io.vgpu.gateway.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.vgpu.gateway.core.draview.DraJson;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.dra.DraNames;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.vgpu.gateway.e2e.E2eCluster.gpu;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A mixed cluster (issue 13 item 3): device-plugin nodes registered through HAMi's annotation, DRA-mode nodes
 * (label {@code vgpu.io/mode=dra}) that publish only a ResourceSlice of {@code gpu.vgpu.io}, one of them with a
 * register annotation left over from before its switch. {@code /filter} never places a pod on a DRA node; the
 * {@code hami_*} gauges and {@code /debug/state} show the cards of both modes, the DRA ones marked
 * {@code mode="dra"} and charged with what the allocated ResourceClaims consume.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class DraMixedClusterTest {

    private static final String NS = "dra-mixed";
    private static final long GIB = 1024L * 1024L * 1024L;

    private static E2eCluster cluster;

    @BeforeAll
    static void startGateway() throws Exception {
        cluster = E2eCluster.start("VGPU_DEBUG_STATE", "metrics");
        cluster.registeredNode("dp-node", gpu("GPU-dp", 0, 32768));
        draNode("dra-node", null);
        draNode("dra-stale", NodeRegisterCodec.encode(List.of(gpu("GPU-stale", 0, 32768))));
        create(DraJson.slice("dra-node-gpu.vgpu.io", DraNames.DRIVER, "dra-node", 1,
                DraJson.gpu(0, "GPU-dra0", 81_920, 10), DraJson.gpu(1, "GPU-dra1", 81_920, 10)), ResourceSlice.class);
        create(DraJson.slice("dra-stale-gpu.vgpu.io", DraNames.DRIVER, "dra-stale", 1,
                DraJson.gpu(0, "GPU-stale", 32_768, 10)), ResourceSlice.class);
        create(DraJson.claim(NS, "train-gpu-x1", "train", DraJson.result(DraNames.DRIVER, "dra-node", "gpu-0",
                "\"memory\":\"4Gi\",\"cores\":\"30\",\"slots\":\"100\"")), ResourceClaim.class);
    }

    @AfterAll
    static void stopGateway() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void filterNeverPlacesOnADraModeNode() {
        for (int i = 0; i < 5; i++) {
            Pod pod = cluster.admit(NS, "hami-" + i, "1000");
            JsonNode reply = cluster.filter(pod, "dra-node", "dra-stale", "dp-node").json();
            assertThat(reply.path("NodeNames")).as(reply.toString()).hasSize(1);
            assertThat(reply.path("NodeNames").get(0).asText()).isEqualTo("dp-node");
        }
        Pod onlyDra = cluster.admit(NS, "hami-dra-only", "1000");
        JsonNode reply = cluster.filter(onlyDra, "dra-node", "dra-stale").json();
        assertThat(reply.path("NodeNames").size()).as(reply.toString()).isZero();
        assertThat(reply.path("FailedNodes").has("dra-node")).isTrue();
        assertThat(reply.path("FailedNodes").has("dra-stale")).isTrue();
    }

    @Test
    void theGaugesShowTheCardsOfBothModesTheDraOnesMarked() {
        cluster.eventually("DRA cards in the gauges", () -> metrics().contains("GPU-dra1"));
        String metrics = metrics();
        assertThat(line(metrics, "hami_gpu_memory_allocated_bytes{", "GPU-dra0"))
                .contains("mode=\"dra\"").contains("node=\"dra-node\"").endsWith(" " + (double) (4 * GIB));
        assertThat(line(metrics, "hami_gpu_core_allocated_ratio{", "GPU-dra0")).endsWith(" 30.0");
        assertThat(line(metrics, "hami_gpu_shared_count{", "GPU-dra0")).endsWith(" 1.0");
        assertThat(line(metrics, "hami_gpu_memory_limit_bytes{", "GPU-dra1")).contains("mode=\"dra\"")
                .endsWith(" " + (double) (80 * GIB));
        assertThat(line(metrics, "hami_vgpu_memory_allocated_bytes{", "GPU-dra0")).contains("pod=\"train\"")
                .contains("claim=\"train-gpu-x1\"").contains("mode=\"dra\"");
        assertThat(line(metrics, "hami_gpu_memory_limit_bytes{", "GPU-dp")).as("HAMi's label set, unchanged")
                .doesNotContain("mode=").contains("node=\"dp-node\"");
        assertThat(line(metrics, "hami_gpu_memory_limit_bytes{", "GPU-stale")).contains("mode=\"dra\"")
                .contains("node=\"dra-stale\"");
    }

    @Test
    void debugStateShowsTheDraCardsAndTheirShares() {
        cluster.eventually("DRA cards in /debug/state", () -> state().path("dra").path("cards").size() == 3);
        JsonNode dra = state().path("dra");
        assertThat(dra.path("mode").asText()).isEqualTo("dra");
        JsonNode card = dra.path("cards").get(0);
        assertThat(card.path("uuid").asText()).isEqualTo("GPU-dra0");
        assertThat(card.path("usedMemoryMiB").asLong()).isEqualTo(4096);
        assertThat(card.path("shares").get(0).path("pods").get(0).asText()).isEqualTo("train");
    }

    private static String metrics() {
        return cluster.getMetricsPort("/metrics").body();
    }

    private static JsonNode state() {
        return cluster.getMetricsPort("/debug/state").json();
    }

    private static String line(String metrics, String prefix, String uuid) {
        return metrics.lines().filter(l -> l.startsWith(prefix) && l.contains("device_uuid=\"" + uuid + "\""))
                .findFirst().orElseThrow(() -> new AssertionError("no " + prefix + " of " + uuid + " in\n" + metrics));
    }

    private static void draNode(String name, String staleRegister) {
        Node node = new NodeBuilder().withNewMetadata().withName(name)
                .withLabels(Map.of(DraNames.MODE_LABEL, DraNames.MODE_DRA))
                .withAnnotations(staleRegister == null ? Map.of()
                        : Map.of(HamiAnnotations.NODE_NVIDIA_REGISTER, staleRegister))
                .endMetadata().withNewStatus().addToAllocatable("cpu", new Quantity("16")).endStatus().build();
        cluster.kube().nodes().resource(node).create();
    }

    private static <T extends io.fabric8.kubernetes.api.model.HasMetadata> void create(String json, Class<T> type) {
        T object = cluster.kube().getKubernetesSerialization().unmarshal(json, type);
        cluster.kube().resource(object).create();
    }
}
