package io.vgpu.deviceplugin;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.vgpu.deviceplugin.config.DraPluginSettings;
import io.vgpu.deviceplugin.core.mode.AgentMode;
import io.vgpu.deviceplugin.dra.kubelet.FakeDraKubelet;
import io.vgpu.deviceplugin.testing.NodeFieldApiServer;
import io.vgpu.dra.v1.Claim;
import io.vgpu.dra.v1.NodePrepareResourceResponse;
import io.vgpu.dra.v1.NodePrepareResourcesRequest;
import io.vgpu.dra.v1.NodeUnprepareResourcesRequest;
import io.vgpu.pluginregistration.v1.PluginInfo;
import io.vgpu.state.codec.HamiAnnotations;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.vgpu.deviceplugin.AgentFixture.eventually;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The wiring of DRA mode's two halves in {@link Main}: the whole agent started on a node labelled
 * {@code vgpu.io/mode=dra}, a grpc-java kubelet ({@link FakeDraKubelet}) that registers the kubelet DRA
 * plugin through the plugin-watcher socket and prepares a claim written to the fabric8 CRUD mock, and the
 * mode controller asking that plugin's checkpoint (not the API server) whether claims are prepared: the
 * switch back to device-plugin mode is refused while the claim is prepared, and goes ahead once it is
 * unprepared and gone, stopping the DRA plugin (its sockets go) and starting the device plugin.
 */
@Timeout(120)
class DraWiringEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final String NODE = "node-wired";
    private static final KubernetesSerialization KUBE = new KubernetesSerialization();

    @TempDir
    Path dir;
    private NodeFieldApiServer api;
    private KubernetesClient client;
    private AgentFixture fx;
    private FakeDraKubelet kubelet;

    @BeforeEach
    void startApiServer() {
        api = NodeFieldApiServer.start();
        client = api.client();
    }

    @AfterEach
    void stop() throws Exception {
        try {
            if (kubelet != null) {
                kubelet.close();
            }
            if (fx != null) {
                fx.close();
            }
        } finally {
            api.close();
        }
    }

    @Test
    void aPreparedClaimKeepsTheNodeInDraModeUntilTheKubeletUnpreparesIt() throws Exception {
        // the kubelet's plugin watcher runs before the agent, on the registry dir AgentFixture configures
        kubelet = new FakeDraKubelet(dir.resolve("plugins_registry"), dir.resolve("plugins/gpu.vgpu.io/dra.sock"));
        fx = AgentFixture.startNode(dir, NODE, client, Map.of("vgpu.io/mode", "dra"), Map.of(),
                Map.of("VGPU_MODE_RETRY", "200ms"), DraSliceEndToEndTest.gpus(true, 40960));
        DraPluginSettings dra = fx.config.draPlugin();
        assertThat(fx.agent.mode().current()).isEqualTo(AgentMode.DRA);
        assertThat(eventually(WAIT, () -> slices().size() == 1)).isTrue();

        FakeDraKubelet.Seen seen = kubelet.nextSocket(15);
        assertThat(seen).as("the agent's registration socket in the plugin-watcher directory").isNotNull();
        assertThat(seen.socket()).isEqualTo(dra.registrationSocket());
        PluginInfo info = kubelet.register(seen.socket(), true, "");
        assertThat(info.getEndpoint()).isEqualTo(dra.draSocket().toAbsolutePath().toString());

        ResourceClaim claim = claim("team", "train-gpu", "gpu-1");
        String uid = claim.getMetadata().getUid();
        Path spec = dra.cdiDir().resolve("k8s.gpu.vgpu.io-claim_" + uid + ".json");
        try (FakeDraKubelet.Plugin plugin = kubelet.connect(info.getEndpoint())) {
            NodePrepareResourceResponse prepared = plugin.v1().nodePrepareResources(NodePrepareResourcesRequest.newBuilder()
                    .addClaims(ref(claim)).build()).getClaimsOrThrow(uid);
            assertThat(prepared.getError()).isEmpty();
            assertThat(prepared.getDevicesList()).singleElement()
                    .satisfies(d -> assertThat(d.getCdiDeviceIdsList()).containsExactly("k8s.gpu.vgpu.io/claim=" + uid + "-gpu-gpu-1"));
            assertThat(spec).as("the CDI spec on disk under the agent's CDI dir").exists();
            assertThat(Files.readString(spec)).contains("CUDA_DEVICE_MEMORY_LIMIT_0=4096m");

            label("device-plugin");
            assertThat(eventually(WAIT, () -> events("ModeSwitchRefused").stream().anyMatch(m ->
                    m.contains("1 ResourceClaim(s) prepared on the node") && m.contains("team/train-gpu"))))
                    .as("refused because the kubelet plugin's checkpoint records the claim").isTrue();
            assertThat(slices()).as("the slice stays").hasSize(1);
            assertThat(fx.agent.mode().current()).isEqualTo(AgentMode.DRA);
            assertThat(fx.pluginSocket()).as("no device plugin").doesNotExist();

            // the plugin still serves after the refusal: the kubelet unprepares over the same connection
            assertThat(plugin.v1().nodeUnprepareResources(NodeUnprepareResourcesRequest.newBuilder().addClaims(ref(claim))
                    .build()).getClaimsOrThrow(uid).getError()).isEmpty();
            assertThat(spec).doesNotExist();
        }
        client.resource(claim).delete();

        assertThat(eventually(WAIT, () -> Files.exists(fx.pluginSocket())
                && fx.nodeAnnotations().get(HamiAnnotations.NODE_NVIDIA_REGISTER) != null && slices().isEmpty()))
                .as("device-plugin mode: plugin socket, register annotation, no slices").isTrue();
        assertThat(fx.kubelet.awaitRegistration(WAIT)).as("the device plugin registers with the kubelet").isNotNull();
        assertThat(eventually(WAIT, () -> !Files.exists(dra.registrationSocket()) && !Files.exists(dra.draSocket())))
                .as("the DRA plugin stopped: its sockets are gone").isTrue();
        // the switch completes after the device plugin's start: its parts serve before the mode is recorded
        assertThat(eventually(WAIT, () -> fx.agent.mode().current() == AgentMode.DEVICE_PLUGIN
                && !events("ModeSwitched").isEmpty())).isTrue();
        assertThat(api.refusedSlices()).isEmpty();
    }

    /** An allocated claim with one shared result on this node's {@code device} (request {@code gpu}), as stored. */
    private ResourceClaim claim(String namespace, String name, String device) {
        ResourceClaim claim = KUBE.unmarshal("""
                {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"namespace":"%s","name":"%s"},
                 "spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu.vgpu.io","count":1,
                   "capacity":{"requests":{"memory":"4Gi","cores":"30"}}}}]}},
                 "status":{"allocation":{"devices":{"results":[{"request":"gpu","driver":"gpu.vgpu.io","pool":"%s",
                   "device":"%s","shareID":"6f1c1c6e-2f0a-4b1e-9a4e-1d2c3b4a5f60",
                   "consumedCapacity":{"memory":"4Gi","cores":"30","slots":"250"}}]}}}}"""
                .formatted(namespace, name, NODE, device), ResourceClaim.class);
        ResourceClaim created = client.resource(claim).create();
        assertThat(created.getStatus().getAllocation()).as("the mock keeps the allocation").isNotNull();
        return created;
    }

    private static Claim ref(ResourceClaim claim) {
        return Claim.newBuilder().setNamespace(claim.getMetadata().getNamespace()).setName(claim.getMetadata().getName())
                .setUid(claim.getMetadata().getUid()).build();
    }

    private void label(String value) {
        client.nodes().withName(NODE).edit(n -> {
            n.getMetadata().getLabels().put("vgpu.io/mode", value);
            return n;
        });
    }

    private List<ResourceSlice> slices() {
        return client.resources(ResourceSlice.class).list().getItems().stream()
                .filter(s -> NODE.equals(s.getSpec().getNodeName())).toList();
    }

    private List<String> events(String reason) {
        return client.v1().events().inNamespace("default").list().getItems().stream()
                .filter(e -> reason.equals(e.getReason()) && NODE.equals(e.getInvolvedObject().getName()))
                .map(Event::getMessage).toList();
    }
}
