package io.vgpu.deviceplugin.dra.kubelet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vgpu.deviceplugin.core.monitor.InMemoryPodDirectory;
import io.vgpu.deviceplugin.core.monitor.MonitoredPod;
import io.vgpu.deviceplugin.host.LocalHostFiles;
import io.vgpu.deviceplugin.monitor.FeedbackLoop.TickReport;
import io.vgpu.deviceplugin.monitor.MonitorConfig;
import io.vgpu.deviceplugin.monitor.MonitorRegionFiles;
import io.vgpu.deviceplugin.monitor.TrackedClaimRegion;
import io.vgpu.deviceplugin.monitor.VgpuMonitor;
import io.vgpu.dra.v1.Claim;
import io.vgpu.dra.v1.NodePrepareResourcesRequest;
import io.vgpu.dra.v1.NodeUnprepareResourcesRequest;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The kubelet plugin and the vGPU monitor together, as one node agent runs them: a claim prepared over
 * real gRPC by the component {@code Main} creates; the HAMi-core region written where the CDI spec on
 * disk sends it (the {@code CUDA_DEVICE_MEMORY_SHARED_CACHE} path, through the spec's mount onto the
 * host); the monitor, reading the plugin's own checkpoint, labels that region's series with the claim,
 * the request and the pod that uses it, and forgets it once the claim is unprepared.
 */
@EnableKubernetesMockClient(crud = true)
@Timeout(120)
class DraMonitorEndToEndTest {

    static KubernetesClient client;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    private DraFixture fx;
    private FakeDraKubelet kubelet;
    private DraKubeletPlugin plugin;

    @BeforeEach
    void fixture() throws Exception {
        fx = new DraFixture(dir, client, 16);
        kubelet = new FakeDraKubelet(fx.config.draPlugin().registryDir(), fx.draSocket());
        plugin = fx.plugin();
        plugin.start().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @AfterEach
    void close() throws Exception {
        plugin.stop().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        kubelet.close();
        fx.close();
    }

    @Test
    void theMonitorLabelsAPreparedClaimsRegionWithClaimRequestAndPodAndForgetsItAfterUnprepare() throws Exception {
        ResourceClaim claim = fx.claim("team", "c1", 4096, 30, 62, "gpu-0");
        String uid = claim.getMetadata().getUid();
        Claim ref = Claim.newBuilder().setNamespace("team").setName("c1").setUid(uid).build();
        Path region;
        try (FakeDraKubelet.Plugin dra = kubelet.connect(kubelet.register(fx.registrationSocket(), true, "").getEndpoint())) {
            assertThat(dra.v1().nodePrepareResources(NodePrepareResourcesRequest.newBuilder().addClaims(ref).build())
                    .getClaimsOrThrow(uid).getError()).isEmpty();
            region = hostPathOfTheSharedCache(uid);
            // what HAMi-core does in the container: create the region at the path the env names
            MonitorRegionFiles.v1().uuid(DraFixture.GPU0).limit(0, 4096L << 20).process(1L << 30, 0, 0, 0, 7)
                    .writeFile(region);

            InMemoryPodDirectory pods = new InMemoryPodDirectory();
            pods.put(new MonitoredPod("pod-uid", "team", "trainer", DraFixture.NODE, Map.of(), Map.of(), List.of(),
                    List.of("main"), List.of(new MonitoredPod.ClaimUse("main", "c1", ""))));
            VgpuMonitor monitor = monitor(pods);

            assertThat(monitor.feedback().tick().outcome()).isEqualTo(TickReport.Outcome.OBSERVED);
            assertThat(monitor.claimRegions().regions()).extracting(TrackedClaimRegion::claimUid, TrackedClaimRegion::file)
                    .containsExactly(Tuple.tuple(uid, region));
            assertThat(limitSamples(monitor)).containsExactly("hami_vgpu_memory_limit_bytes{claim=\"c1\",container=\"main\","
                    + "device_uuid=\"" + DraFixture.GPU0 + "\",namespace=\"team\",pod=\"trainer\",request=\"gpu\","
                    + "vdevice_index=\"0\",zone=\"vGPU\"} 4.294967296E9");

            assertThat(dra.v1().nodeUnprepareResources(NodeUnprepareResourcesRequest.newBuilder().addClaims(ref).build())
                    .getClaimsOrThrow(uid).getError()).isEmpty();
            assertThat(region).doesNotExist();
            assertThat(monitor.feedback().tick().outcome()).isEqualTo(TickReport.Outcome.OBSERVED);
            assertThat(monitor.claimRegions().regions()).isEmpty();
            assertThat(limitSamples(monitor)).isEmpty();
        }
    }

    /** The monitor as {@code Main} configures it: hook path under the host root, the plugin's checkpoint. */
    private VgpuMonitor monitor(InMemoryPodDirectory pods) throws IOException {
        LocalHostFiles host = new LocalHostFiles(fx.config.hostRoot(), Runnable::run);
        MonitorConfig config = MonitorConfig.defaults(DraFixture.NODE).withHookPath(host.resolve(fx.config.hookPath()))
                .withMigApplyLock(dir.resolve("mig.lock"));
        // the chart's hami-core init container creates it on every node; the loop (as HAMi's) fails without it
        Files.createDirectories(config.containersDirectory());
        return VgpuMonitor.create(config, Optional.empty(), pods, Clock.systemUTC(),
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), fx.config.draPlugin().checkpointFile());
    }

    /**
     * Where the region of request {@code gpu} lies on the host: the container path the spec's env gives
     * HAMi-core, mapped through the spec's mount of its directory, under the test's host root.
     */
    private Path hostPathOfTheSharedCache(String uid) throws Exception {
        JsonNode edits = JSON.readTree(Files.readString(fx.spec(uid))).path("devices").get(0).path("containerEdits");
        String cache = null;
        for (JsonNode e : edits.path("env")) {
            if (e.asText().startsWith("CUDA_DEVICE_MEMORY_SHARED_CACHE=")) {
                cache = e.asText().substring("CUDA_DEVICE_MEMORY_SHARED_CACHE=".length());
            }
        }
        assertThat(cache).as("the shared-cache env").isNotNull();
        Path inContainer = Path.of(cache);
        for (JsonNode m : edits.path("mounts")) {
            Path containerPath = Path.of(m.path("containerPath").asText());
            if (inContainer.startsWith(containerPath) && !inContainer.equals(containerPath)) {
                String host = m.path("hostPath").asText() + "/" + containerPath.relativize(inContainer);
                return fx.config.hostRoot().resolve(host.substring(1));
            }
        }
        throw new AssertionError("no mount in " + edits + " carries " + cache);
    }

    private static List<String> limitSamples(VgpuMonitor monitor) {
        return Arrays.stream(monitor.registry().scrape().split("\n"))
                .filter(l -> l.startsWith("hami_vgpu_memory_limit_bytes")).toList();
    }
}
