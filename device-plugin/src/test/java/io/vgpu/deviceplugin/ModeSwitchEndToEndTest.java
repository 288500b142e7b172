package io.vgpu.deviceplugin;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vgpu.deviceplugin.core.mode.AgentMode;
import io.vgpu.deviceplugin.testing.NodeFieldApiServer;
import io.vgpu.state.codec.HamiAnnotations;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.vgpu.deviceplugin.AgentFixture.eventually;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The mode per node as {@link Main} runs it: the label {@code vgpu.io/mode} read at start and on change,
 * device-plugin mode's kubelet registration and register annotation against DRA mode's ResourceSlice, and
 * every case that refuses a switch (log line + Node Event, nothing half-done, retried until nothing blocks
 * it). Real parts: a grpc-java kubelet on a Unix socket, the fabric8 CRUD mock API server, fake GPUs.
 */
@Timeout(120)
class ModeSwitchEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

    @TempDir
    Path dir;
    private NodeFieldApiServer api;
    private KubernetesClient client;
    private AgentFixture fx;

    @BeforeEach
    void startApiServer() {
        api = NodeFieldApiServer.start();
        client = api.client();
    }

    @AfterEach
    void stop() throws Exception {
        try {
            if (fx != null) {
                fx.close();
            }
        } finally {
            api.close();
        }
    }

    /** Prepares the node (labels, annotations) and kubelet, then starts the agent. */
    private void start(String node, Map<String, String> labels, Map<String, String> annotations, Map<String, String> env)
            throws Exception {
        Map<String, String> all = new HashMap<>(env);
        all.put("VGPU_MODE_RETRY", "200ms");
        fx = AgentFixture.startNode(dir, node, client, labels, annotations, all, DraSliceEndToEndTest.gpus(true, 40960));
    }

    private void label(String value) {
        client.nodes().withName(fx.node).edit(n -> {
            if (value == null) {
                n.getMetadata().getLabels().remove("vgpu.io/mode");
            } else {
                n.getMetadata().getLabels().put("vgpu.io/mode", value);
            }
            return n;
        });
    }

    private List<ResourceSlice> slices() {
        return client.resources(ResourceSlice.class).list().getItems().stream()
                .filter(s -> fx.node.equals(s.getSpec().getNodeName())).toList();
    }

    private List<String> events(String reason) {
        return client.v1().events().inNamespace("default").list().getItems().stream()
                .filter(e -> reason.equals(e.getReason()) && fx.node.equals(e.getInvolvedObject().getName()))
                .map(Event::getMessage).toList();
    }

    private boolean inDevicePluginMode() {
        return Files.exists(fx.pluginSocket()) && fx.nodeAnnotations().get(HamiAnnotations.NODE_NVIDIA_REGISTER) != null
                && slices().isEmpty();
    }

    private boolean inDraMode() {
        return !Files.exists(fx.pluginSocket()) && fx.nodeAnnotations().get(HamiAnnotations.NODE_NVIDIA_REGISTER) == null
                && slices().size() == 1;
    }

    private Pod pod(String name, String phase, String nodeName, boolean vgpu, Map<String, String> labels,
                    Map<String, String> annotations) {
        PodBuilder b = new PodBuilder().withNewMetadata().withNamespace("team").withName(name).withLabels(labels)
                .withAnnotations(annotations).endMetadata()
                .withNewSpec().withNodeName(nodeName).addNewContainer().withName("c").withNewResources()
                .withLimits(vgpu ? Map.of("nvidia.com/gpu", new Quantity("1")) : Map.of("cpu", new Quantity("1")))
                .endResources().endContainer().endSpec()
                .withNewStatus().withPhase(phase).endStatus();
        return client.pods().inNamespace("team").resource(b.build()).create();
    }

    @Test
    void startsALabelledNodeInDraModeWithoutTheDevicePlugin() throws Exception {
        start("node-mode-start", Map.of("vgpu.io/mode", "dra"),
                Map.of(HamiAnnotations.NODE_HANDSHAKE, "Requesting_2026-12-01 10:00:00"), Map.of());

        assertThat(eventually(WAIT, () -> slices().size() == 1)).isTrue();
        assertThat(Files.exists(fx.pluginSocket())).as("no device-plugin socket").isFalse();
        assertThat(fx.nodeAnnotations().get(HamiAnnotations.NODE_HANDSHAKE)).as("handshake removed").isNull();
        assertThat(fx.nodeAnnotations().get(HamiAnnotations.NODE_NVIDIA_REGISTER)).isNull();
        assertThat(fx.agent.mode().current()).isEqualTo(AgentMode.DRA);
    }

    @Test
    void switchesAnIdleNodeToDraModeAndBackWhenTheLabelChanges() throws Exception {
        start("node-mode-switch", Map.of(), Map.of(), Map.of());
        assertThat(fx.kubelet.awaitRegistration(WAIT)).as("device-plugin mode by default").isNotNull();
        assertThat(eventually(WAIT, this::inDevicePluginMode)).isTrue();

        label("dra");
        assertThat(eventually(WAIT, this::inDraMode)).as("DRA mode: slice, no plugin socket, no register annotation").isTrue();
        assertThat(eventually(WAIT, () -> !events("ModeSwitched").isEmpty())).isTrue();

        label(null);
        assertThat(fx.kubelet.awaitRegistration(WAIT)).as("the device plugin registers again").isNotNull();
        assertThat(eventually(WAIT, this::inDevicePluginMode)).as("slices deleted, register annotation back").isTrue();
        assertThat(eventually(WAIT, () -> events("ModeSwitched").size() == 2)).isTrue();
        assertThat(api.refusedSlices()).isEmpty();
    }

    /** What keeps a node in device-plugin mode. */
    enum Blocker {
        RUNNING_POD("vGPU pod(s) of device-plugin mode running (team/train)"),
        PENDING_BOUND_POD("vGPU pod(s) bound to the node and still Pending (team/train)"),
        RESERVATION("placed on the node by the scheduler and not bound yet (live reservations) (team/train)"),
        NODE_LOCK("the node lock hami.io/mutex.lock is held");

        final String message;

        Blocker(String message) {
            this.message = message;
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Blocker.class)
    void refusesToLeaveDevicePluginModeUntilNothingBlocksIt(Blocker blocker) throws Exception {
        String node = "node-block-" + blocker.name().toLowerCase().replace('_', '-');
        start(node, Map.of(), Map.of(), Map.of());
        assertThat(eventually(WAIT, this::inDevicePluginMode)).isTrue();
        switch (blocker) {
            case RUNNING_POD -> pod("train", "Running", node, true, Map.of(), Map.of());
            case PENDING_BOUND_POD -> pod("train", "Pending", node, true, Map.of(), Map.of());
            case RESERVATION -> pod("train", "Pending", null, true, Map.of(HamiAnnotations.VGPU_NODE, node),
                    Map.of(HamiAnnotations.VGPU_NODE, node));
            case NODE_LOCK -> client.nodes().withName(node).edit(n -> {
                n.getMetadata().getAnnotations().put(HamiAnnotations.NODE_LOCK, "2026-12-01T10:00:00Z,team,train");
                return n;
            });
        }
        pod("web", "Running", node, false, Map.of(), Map.of()); // not a GPU pod: never blocks

        label("dra");

        assertThat(eventually(WAIT, () -> events("ModeSwitchRefused").stream().anyMatch(m -> m.contains(blocker.message))))
                .as("a Node Event says why").isTrue();
        assertThat(inDevicePluginMode()).as("nothing half-done: still device-plugin mode").isTrue();

        if (blocker == Blocker.NODE_LOCK) {
            client.nodes().withName(node).edit(n -> {
                n.getMetadata().getAnnotations().remove(HamiAnnotations.NODE_LOCK);
                return n;
            });
        } else {
            client.pods().inNamespace("team").withName("train").delete();
        }
        assertThat(eventually(WAIT, this::inDraMode)).as("switched once nothing blocks it").isTrue();
    }

    @Test
    void refusesToLeaveDraModeWhileClaimsAreAllocatedToTheNode() throws Exception {
        start("node-claims", Map.of("vgpu.io/mode", "dra"), Map.of(), Map.of());
        assertThat(eventually(WAIT, this::inDraMode)).isTrue();
        ResourceClaim claim = new ResourceClaimBuilder().withNewMetadata().withNamespace("team").withName("gpu-claim")
                .endMetadata().withNewSpec().endSpec()
                .withNewStatus().withNewAllocation().withNewDevices().addNewResult().withRequest("gpu")
                .withDriver("gpu.vgpu.io").withPool("node-claims").withDevice("gpu-0").endResult()
                .addNewResult().withRequest("nic").withDriver("other.example.com").withPool("node-claims").withDevice("nic-0")
                .endResult().endDevices().endAllocation().endStatus().build();
        client.resources(ResourceClaim.class).inNamespace("team").resource(claim).create();
        ResourceClaim elsewhere = new ResourceClaimBuilder(claim).editMetadata().withName("elsewhere").endMetadata()
                .editStatus().editAllocation().editDevices().editFirstResult().withPool("node-other").endResult()
                .endDevices().endAllocation().endStatus().build();
        client.resources(ResourceClaim.class).inNamespace("team").resource(elsewhere).create();

        label("device-plugin");

        assertThat(eventually(WAIT, () -> events("ModeSwitchRefused").stream()
                .anyMatch(m -> m.contains("1 ResourceClaim(s) allocated to the node and not prepared yet") && m.contains("team/gpu-claim")
                        && !m.contains("elsewhere")))).isTrue();
        assertThat(inDraMode()).as("the slice stays").isTrue();

        client.resources(ResourceClaim.class).inNamespace("team").withName("gpu-claim").delete();
        assertThat(eventually(WAIT, this::inDevicePluginMode)).isTrue();
    }

    @Test
    void refusesAtStartToSwitchANodeWhosePodsRunInTheModeItServedBefore() throws Exception {
        // the node served device-plugin mode (its register annotation) and a vGPU pod runs there
        pod("train", "Running", "node-restart", true, Map.of(), Map.of());
        start("node-restart", Map.of("vgpu.io/mode", "dra"), Map.of(HamiAnnotations.NODE_NVIDIA_REGISTER, "[]"), Map.of());

        assertThat(eventually(WAIT, () -> events("ModeSwitchRefused").stream()
                .anyMatch(m -> m.contains("from device-plugin mode to DRA mode refused")))).isTrue();
        assertThat(eventually(WAIT, this::inDevicePluginMode)).isTrue();
    }

    @Test
    void labelsTheNodeWhenDraModeComesFromTheAgentsOwnSetting() throws Exception {
        start("node-local-dra", Map.of(), Map.of(), Map.of("VGPU_MODE", "dra"));

        assertThat(eventually(WAIT, () -> "dra".equals(client.nodes().withName(fx.node).get().getMetadata().getLabels()
                .get("vgpu.io/mode")))).as("the gateway reads the label").isTrue();
        assertThat(eventually(WAIT, this::inDraMode)).isTrue();
    }

    @Test
    void anAgentWithDraModeDisabledStaysInDevicePluginMode() throws Exception {
        start("node-dra-off", Map.of("vgpu.io/mode", "dra"), Map.of(), Map.of("VGPU_DRA_ENABLED", "false"));

        assertThat(fx.kubelet.awaitRegistration(WAIT)).isNotNull();
        assertThat(eventually(WAIT, () -> events("ModeSwitchRefused").stream()
                .anyMatch(m -> m.contains("DRA mode is disabled on this agent")))).isTrue();
        assertThat(eventually(WAIT, this::inDevicePluginMode)).isTrue();
    }
}
