package io.vgpu.deviceplugin.dra.kubelet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.vertx.core.Future;
import io.vgpu.dra.v1.Claim;
import io.vgpu.dra.v1.Device;
import io.vgpu.dra.v1.NodePrepareResourceResponse;
import io.vgpu.dra.v1.NodePrepareResourcesRequest;
import io.vgpu.dra.v1.NodePrepareResourcesResponse;
import io.vgpu.dra.v1.NodeUnprepareResourcesRequest;
import io.vgpu.dra.v1.NodeUnprepareResourcesResponse;
import io.vgpu.pluginregistration.v1.PluginInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The kubelet plugin with real parts: the component as {@code Main} creates it, a grpc-java kubelet
 * ({@link FakeDraKubelet}) that registers it through the plugin-watcher socket and calls it over real
 * Unix sockets, claims written to the fabric8 CRUD mock API server, CDI specs read from disk
 * (spec/dra-spec.md §7 checks 5, 6, 13, 14, 18, 20, 21, 22, 23).
 */
@EnableKubernetesMockClient(crud = true)
@Timeout(120)
class DraKubeletEndToEndTest {

    static KubernetesClient client;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    private DraFixture fx;
    private FakeDraKubelet kubelet;
    private final List<DraKubeletPlugin> plugins = new ArrayList<>();

    @BeforeEach
    void fixture() throws Exception {
        fx = new DraFixture(dir, client, 16);
        kubelet = new FakeDraKubelet(fx.config.draPlugin().registryDir(), fx.draSocket());
    }

    @AfterEach
    void close() throws Exception {
        for (DraKubeletPlugin p : plugins) {
            await(p.stop());
        }
        kubelet.close();
        fx.close();
    }

    @Test
    void registersThroughThePluginWatcherOnlyOnceDraSockServesAndSurvivesARefusal() throws Exception {
        start();
        FakeDraKubelet.Seen seen = kubelet.nextSocket(10);
        assertThat(seen).as("a socket in the plugin-watcher directory").isNotNull();
        assertThat(seen.socket()).isEqualTo(fx.registrationSocket());
        assertThat(seen.socket().getFileName().toString()).isEqualTo("gpu.vgpu.io-reg.sock");
        assertThat(seen.draSocketWasServing()).as("dra.sock existed when the registration socket appeared").isTrue();

        PluginInfo refused = kubelet.register(seen.socket(), false, "x");
        PluginInfo info = kubelet.register(seen.socket(), true, "");
        assertThat(refused).isEqualTo(info);
        assertThat(info.getType()).isEqualTo("DRAPlugin");
        assertThat(info.getName()).isEqualTo("gpu.vgpu.io");
        assertThat(info.getEndpoint()).isEqualTo(fx.draSocket().toAbsolutePath().toString());
        assertThat(info.getSupportedVersionsList()).containsExactly("v1.DRAPlugin", "v1beta1.DRAPlugin");
    }

    @Test
    void preparesOverV1WithShareIdsAndSpecsOnDiskThenUnpreparesIdempotently() throws Exception {
        start();
        ResourceClaim claim = fx.claim("team", "c1", 4096, 30, 62, "gpu-0");
        String uid = claim.getMetadata().getUid();
        String shareId = claim.getStatus().getAllocation().getDevices().getResults().get(0).getShareID();
        try (FakeDraKubelet.Plugin plugin = connect()) {
            NodePrepareResourcesResponse first = plugin.v1().nodePrepareResources(prepare(claim));
            NodePrepareResourceResponse answer = first.getClaimsOrThrow(uid);
            assertThat(answer.getError()).isEmpty();
            assertThat(answer.getDevicesList()).containsExactly(Device.newBuilder().addRequestNames("gpu").setPoolName("node-1")
                    .setDeviceName("gpu-0").addCdiDeviceIds("k8s.gpu.vgpu.io/claim=" + uid + "-gpu-gpu-0").setShareId(shareId).build());

            JsonNode spec = JSON.readTree(Files.readString(fx.spec(uid)));
            assertThat(spec.path("kind").asText()).isEqualTo("k8s.gpu.vgpu.io/claim");
            JsonNode edits = spec.path("devices").get(0).path("containerEdits");
            assertThat(spec.path("devices").get(0).path("name").asText()).isEqualTo(uid + "-gpu-gpu-0");
            assertThat(strings(edits.path("env"))).contains("NVIDIA_VISIBLE_DEVICES=" + DraFixture.GPU0,
                    "CUDA_DEVICE_MEMORY_LIMIT_0=4096m", "CUDA_DEVICE_SM_LIMIT_0=30",
                    "CUDA_DEVICE_MEMORY_SHARED_CACHE=/usr/local/vgpu/claims/" + uid + "/gpu.cache");
            assertThat(edits.path("deviceNodes").get(0).path("path").asText()).isEqualTo("/dev/nvidia0");
            assertThat(Files.isDirectory(fx.claimDir(uid))).isTrue();
            try (var files = Files.list(fx.config.draPlugin().cdiDir())) {
                assertThat(files).as("no temporary file left next to the spec").containsExactly(fx.spec(uid));
            }

            assertThat(plugin.v1().nodePrepareResources(prepare(claim))).as("a repeated prepare").isEqualTo(first);
            NodeUnprepareResourcesResponse unprepared = plugin.v1().nodeUnprepareResources(unprepare(claim));
            assertThat(unprepared.getClaimsOrThrow(uid).getError()).isEmpty();
            assertThat(fx.spec(uid)).doesNotExist();
            assertThat(fx.claimDir(uid)).doesNotExist();
            NodeUnprepareResourcesResponse again = plugin.v1().nodeUnprepareResources(unprepare(claim).toBuilder()
                    .addClaims(Claim.newBuilder().setNamespace("team").setName("never").setUid("uid-never")).build());
            assertThat(again.getClaimsMap()).containsOnlyKeys(uid, "uid-never");
            again.getClaimsMap().values().forEach(r -> assertThat(r.getError()).isEmpty());
        }
    }

    @Test
    void theV1beta1ServiceAnswersTheSameWithoutShareId() throws Exception {
        start();
        ResourceClaim claim = fx.claim("team", "old-kubelet", 2048, 10, 62, "gpu-0", "gpu-1");
        String uid = claim.getMetadata().getUid();
        try (FakeDraKubelet.Plugin plugin = connect()) {
            io.vgpu.dra.v1beta1.NodePrepareResourcesResponse answer = plugin.v1beta1().nodePrepareResources(
                    io.vgpu.dra.v1beta1.NodePrepareResourcesRequest.newBuilder().addClaims(io.vgpu.dra.v1beta1.Claim.newBuilder()
                            .setNamespace("team").setName("old-kubelet").setUid(uid)).build());
            assertThat(answer.getClaimsOrThrow(uid).getError()).isEmpty();
            assertThat(answer.getClaimsOrThrow(uid).getDevicesList()).extracting(io.vgpu.dra.v1beta1.Device::getDeviceName)
                    .containsExactly("gpu-0", "gpu-1");
            // read as v1: field 5 (share_id) never travels on v1beta1
            NodePrepareResourcesResponse asV1 = NodePrepareResourcesResponse.parseFrom(answer.toByteArray());
            assertThat(asV1.getClaimsOrThrow(uid).getDevicesList()).allSatisfy(d -> assertThat(d.hasShareId()).isFalse());
            assertThat(asV1.getClaimsOrThrow(uid).getDevices(0).getUnknownFields().asMap()).isEmpty();
            assertThat(fx.spec(uid)).exists();
            assertThat(plugin.v1beta1().nodeUnprepareResources(io.vgpu.dra.v1beta1.NodeUnprepareResourcesRequest.newBuilder()
                    .addClaims(io.vgpu.dra.v1beta1.Claim.newBuilder().setNamespace("team").setName("old-kubelet").setUid(uid))
                    .build()).getClaimsOrThrow(uid).getError()).isEmpty();
            assertThat(fx.spec(uid)).doesNotExist();
        }
    }

    @Test
    void unpreparesAfterARealRestartOnceTheClaimIsGone() throws Exception {
        DraKubeletPlugin first = start();
        ResourceClaim claim = fx.claim("team", "c1", 4096, 30, 62, "gpu-1");
        String uid = claim.getMetadata().getUid();
        try (FakeDraKubelet.Plugin plugin = connect()) {
            assertThat(plugin.v1().nodePrepareResources(prepare(claim)).getClaimsOrThrow(uid).getError()).isEmpty();
        }
        assertThat(await(first.preparedClaims())).containsOnlyKeys(uid);
        await(first.stop());
        plugins.remove(first);
        assertThat(await(fx.plugin().preparedClaims())).as("a stopped plugin answers from the checkpoint").containsOnlyKeys(uid);
        assertThat(fx.plugin().preparedClaimUids().toCompletableFuture().get(30, TimeUnit.SECONDS))
                .as("the mode controller's port").containsExactly(uid);
        assertThat(fx.registrationSocket()).as("stopping deregisters").doesNotExist();
        assertThat(fx.draSocket()).doesNotExist();
        assertThat(fx.spec(uid)).as("a stop leaves prepared claims in place").exists();
        client.resource(claim).delete();

        start();
        try (FakeDraKubelet.Plugin plugin = connect()) {
            NodeUnprepareResourcesResponse answer = plugin.v1().nodeUnprepareResources(unprepare(claim));
            assertThat(answer.getClaimsOrThrow(uid).getError()).isEmpty();
        }
        assertThat(fx.spec(uid)).doesNotExist();
        assertThat(fx.claimDir(uid)).doesNotExist();
        assertThat(Files.readString(fx.config.draPlugin().checkpointFile())).doesNotContain(uid);
        assertThat(await(plugins.get(0).preparedClaims())).isEmpty();
    }

    @Test
    void thirtyTwoClaimsInOneCallWellUnderTheKubeletDeadline() throws Exception {
        start();
        NodePrepareResourcesRequest.Builder request = NodePrepareResourcesRequest.newBuilder();
        for (int i = 0; i < 32; i++) {
            ResourceClaim c = fx.claim("team", "many-" + i, 1024, 5, 62, "gpu-" + (i % 2));
            request.addClaims(Claim.newBuilder().setNamespace("team").setName("many-" + i).setUid(c.getMetadata().getUid()));
        }
        try (FakeDraKubelet.Plugin plugin = connect()) {
            long started = System.nanoTime();
            NodePrepareResourcesResponse answer = plugin.v1().nodePrepareResources(request.build());
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            assertThat(answer.getClaimsCount()).isEqualTo(32);
            answer.getClaimsMap().values().forEach(r -> assertThat(r.getError()).isEmpty());
            // the kubelet's protocol deadline is 45 s per call
            assertThat(took).isLessThan(Duration.ofSeconds(15));
            System.out.println("32 claims prepared in " + took.toMillis() + " ms");
        }
    }

    @Test
    void concurrentCallsNeverOverCommitAGpu() throws Exception {
        start();
        List<ResourceClaim> claims = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            claims.add(fx.claim("team", "big-" + i, 16384, 0, 62, "gpu-0"));
        }
        ExecutorService kubelets = Executors.newFixedThreadPool(4);
        try (FakeDraKubelet.Plugin plugin = connect()) {
            List<Callable<NodePrepareResourcesResponse>> calls = new ArrayList<>();
            claims.forEach(c -> calls.add(() -> plugin.v1().nodePrepareResources(prepare(c))));
            int prepared = 0;
            for (var f : kubelets.invokeAll(calls)) {
                for (NodePrepareResourceResponse r : f.get().getClaimsMap().values()) {
                    if (r.getError().isEmpty()) {
                        prepared++;
                    } else {
                        assertThat(r.getError()).contains("exceeds its memory capacity 40960 MiB");
                    }
                }
            }
            // 16 GiB shares of a 40 GiB card: two fit, whatever the interleaving
            assertThat(prepared).isEqualTo(2);
        } finally {
            kubelets.shutdownNow();
        }
    }

    @Test
    void replacesStaleSocketsAndRefusesAnUnreadableCheckpoint() throws Exception {
        Files.createDirectories(fx.registrationSocket().getParent());
        Files.createDirectories(fx.draSocket().getParent());
        Files.writeString(fx.registrationSocket(), "stale");
        Files.writeString(fx.draSocket(), "stale");
        start();
        try (FakeDraKubelet.Plugin plugin = connect()) {
            assertThat(plugin.v1().nodeUnprepareResources(NodeUnprepareResourcesRequest.getDefaultInstance()).getClaimsCount())
                    .isZero();
        }
        await(plugins.remove(0).stop());

        Files.writeString(fx.config.draPlugin().checkpointFile(), "{\"version\":1,\"driver\":\"gpu.vgpu.io\",\"claims\":[{}]}");
        DraKubeletPlugin broken = fx.plugin();
        Throwable failure = broken.start().toCompletionStage().toCompletableFuture().handle((v, e) -> e).get(30, TimeUnit.SECONDS);
        assertThat(failure).hasMessageContaining(fx.config.draPlugin().checkpointFile().toString());
        assertThat(fx.registrationSocket()).as("nothing registered").doesNotExist();
    }

    private DraKubeletPlugin start() throws Exception {
        DraKubeletPlugin plugin = fx.plugin();
        await(plugin.start());
        plugins.add(plugin);
        return plugin;
    }

    private FakeDraKubelet.Plugin connect() throws Exception {
        PluginInfo info = kubelet.register(fx.registrationSocket(), true, "");
        return kubelet.connect(info.getEndpoint());
    }

    private static NodePrepareResourcesRequest prepare(ResourceClaim c) {
        return NodePrepareResourcesRequest.newBuilder().addClaims(claim(c)).build();
    }

    private static NodeUnprepareResourcesRequest unprepare(ResourceClaim c) {
        return NodeUnprepareResourcesRequest.newBuilder().addClaims(claim(c)).build();
    }

    private static Claim claim(ResourceClaim c) {
        return Claim.newBuilder().setNamespace(c.getMetadata().getNamespace()).setName(c.getMetadata().getName())
                .setUid(c.getMetadata().getUid()).build();
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(v -> out.add(v.asText()));
        return out;
    }

    private static <T> T await(Future<T> future) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
}
