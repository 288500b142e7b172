package io.vgpu.loadtest.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.testsupport.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.vgpu.state.model.fixtures.GpuFixtures.card;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The chaos harness's stale replica really is stale, in both of its views: one replica launched exactly as the
 * harness launches it ({@link StaleGateway}, the shipped jar unchanged) sees a node created in the API server no
 * sooner than twice its lag: its informer delivers the node late, the ingest registers it in the shared state, and
 * the shared state's change event reaches its view late again. A replica with only one of the two delayed would see
 * it after about one lag.
 */
class StaleReplicaTest {

    private static final Duration LAG = Duration.ofSeconds(4);

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aStaleReplicaSeesANewNodeOnlyAfterBothItsInformerAndItsSharedStateViewCaughtUp() throws IOException {
        ChaosSettings ci = ChaosSettings.ci(MultiReplicaChaosTest.gatewayJar(), Path.of("target", "stale-replica"));
        ChaosSettings one = new ChaosSettings(ci.gatewayJar(), ci.workDir(), 1, 0, LAG, 1, 0, 1, ci.gpuMemMiB(),
                ci.gpuSlots(), 0, 1, 1, 0, 0, ci.killEvery(), ci.reservationTtl(), ci.nodeLockTimeout(), ci.runFor(),
                ci.checkEvery(), Duration.ZERO, 0, 0, false, ci.jvmOptions(), ci.seed(), true);
        try (ChaosCluster cluster = ChaosCluster.start(one)) {
            GatewayReplica stale = cluster.replicas().get(0);
            String probe = "chaos-probe";
            long created = System.nanoTime();
            cluster.kube().nodes().resource(ChaosCluster.gpuNode(probe, List.of(card("GPU-probe")
                    .slots(one.gpuSlots()).memMiB(one.gpuMemMiB()).build()))).create();

            Eventually.within(Duration.ofSeconds(90), "the probe node in the stale view (log: " + stale.log() + ")",
                    () -> cluster.debugState(stale).map(view -> registered(view, probe)).orElse(false));
            Duration seenAfter = Duration.ofNanos(System.nanoTime() - created);
            System.out.printf("stale replica (lag %d ms): a new node reached its view after %d ms%n", LAG.toMillis(),
                    seenAfter.toMillis());

            assertThat(seenAfter).as("seen after both lags").isGreaterThanOrEqualTo(LAG.multipliedBy(2));
        }
    }

    private static boolean registered(JsonNode view, String node) {
        for (JsonNode n : view.path("nodes")) {
            if (node.equals(n.path("name").asText()) && n.path("registered").asBoolean()) {
                return true;
            }
        }
        return false;
    }
}
