package io.vgpu.deviceplugin;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.deviceplugin.devices.DeviceSource;
import io.vgpu.deviceplugin.devices.FakeGpuSource;
import io.vgpu.deviceplugin.v1beta1.AllocateRequest;
import io.vgpu.deviceplugin.v1beta1.AllocateResponse;
import io.vgpu.deviceplugin.v1beta1.ContainerAllocateRequest;
import io.vgpu.deviceplugin.v1beta1.ContainerAllocateResponse;
import io.vgpu.deviceplugin.v1beta1.ContainerPreferredAllocationRequest;
import io.vgpu.deviceplugin.v1beta1.Device;
import io.vgpu.deviceplugin.v1beta1.Empty;
import io.vgpu.deviceplugin.v1beta1.ListAndWatchResponse;
import io.vgpu.deviceplugin.v1beta1.Mount;
import io.vgpu.deviceplugin.v1beta1.PreferredAllocationRequest;
import io.vgpu.deviceplugin.v1beta1.RegisterRequest;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.testsupport.Eventually;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static io.vgpu.deviceplugin.AgentFixture.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The device plugin with real parts: a grpc-java kubelet on real Unix sockets (registration,
 * ListAndWatch, GetPreferredAllocation, Allocate), the fabric8 CRUD mock API server, a temporary host
 * root; pods carry exactly the annotations the stock HAMi scheduler writes.
 */
@EnableKubernetesMockClient(crud = true)
@Timeout(60)
class DevicePluginEndToEndTest {

    static KubernetesClient client;

    private static final String GPU0 = "GPU-11111111-2222-3333-4444-000000000000";
    private static final String GPU1 = "GPU-11111111-2222-3333-4444-000000000001";
    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path dir;
    private AgentFixture fx;
    /** Device scans that returned; the register loop scans once per round, after the previous round published. */
    private final AtomicInteger scans = new AtomicInteger();

    @AfterEach
    void stop() throws Exception {
        if (fx != null) {
            fx.close();
        }
    }

    private AgentFixture start(String node, Map<String, String> env) throws Exception {
        Files.writeString(dir.resolve("gpus.yaml"), AgentFixture.twoGpus());
        fx = AgentFixture.start(dir, node, client, counted(new FakeGpuSource(dir.resolve("gpus.yaml"))), env);
        return fx;
    }

    private DeviceSource counted(DeviceSource source) {
        return new DeviceSource() {
            @Override
            public List<GpuFacts> scan() {
                List<GpuFacts> gpus = source.scan();
                scans.incrementAndGet();
                return gpus;
            }

            @Override
            public String describe() {
                return source.describe();
            }

            @Override
            public void close() {
                source.close();
            }
        };
    }

    @Test
    void registersWithKubeletAdvertisesSplitDevicesAndWritesTheNodeRegisterOnce() throws Exception {
        start("node-register", Map.of());

        RegisterRequest registration = fx.kubelet.awaitRegistration(WAIT);
        assertThat(registration).isNotNull();
        assertThat(registration.getVersion()).isEqualTo("v1beta1");
        assertThat(registration.getEndpoint()).isEqualTo("vgpu-nvidia.sock");
        assertThat(registration.getResourceName()).isEqualTo("nvidia.com/gpu");
        assertThat(registration.getOptions().getGetPreferredAllocationAvailable()).isFalse();

        try (FakeKubelet.PluginConnection plugin = fx.kubelet.connect(fx.pluginSocket()).watch()) {
            assertThat(plugin.blocking.getDevicePluginOptions(Empty.getDefaultInstance()).getGetPreferredAllocationAvailable()).isTrue();
            ListAndWatchResponse devices = plugin.nextUpdate(WAIT);
            assertThat(devices.getDevicesList()).extracting(Device::getID, Device::getHealth, Device::hasTopology)
                    .containsExactly(
                            tuple(GPU0 + "-0", "Healthy", false), tuple(GPU0 + "-1", "Healthy", false),
                            tuple(GPU0 + "-2", "Healthy", false), tuple(GPU0 + "-3", "Healthy", false),
                            tuple(GPU1 + "-0", "Healthy", false), tuple(GPU1 + "-1", "Healthy", false),
                            tuple(GPU1 + "-2", "Healthy", false), tuple(GPU1 + "-3", "Healthy", false));
        }

        String expected = "[{\"id\":\"" + GPU0 + "\",\"count\":4,\"devmem\":40960,\"devcore\":100,\"type\":\"NVIDIA A100-SXM4-40GB\","
                + "\"mode\":\"hami-core\",\"health\":true},{\"id\":\"" + GPU1 + "\",\"index\":1,\"count\":4,\"devmem\":40960,"
                + "\"devcore\":100,\"type\":\"NVIDIA A100-SXM4-40GB\",\"numa\":1,\"mode\":\"hami-core\",\"health\":true}]";
        assertThat(eventually(WAIT, () -> expected.equals(fx.nodeAnnotations().get(HamiAnnotations.NODE_NVIDIA_REGISTER)))).isTrue();
        String version = client.nodes().withName(fx.node).get().getMetadata().getResourceVersion();
        int seen = scans.get();
        // round n+1 scans only after round n published: four more scans are three more complete rounds
        Eventually.within(WAIT, "three more register rounds", () -> scans.get() >= seen + 4);
        assertThat(client.nodes().withName(fx.node).get().getMetadata().getResourceVersion())
                .as("an unchanged registration is not written again").isEqualTo(version);
    }

    @Test
    void allocatesAPodPlacedByTheHamiSchedulerAndReleasesTheNodeLock() throws Exception {
        start("node-interop", Map.of("VGPU_LIBVGPU_VERSION", "v2.10.0"));
        Path versioned = Files.createDirectories(fx.hostRoot.resolve("usr/local/vgpu")).resolve("libvgpu.so.v2.10.0");
        Files.writeString(versioned, "");
        assertThat(fx.kubelet.awaitRegistration(WAIT)).isNotNull();
        String uid = scheduledPod("default", "train-0", GPU1 + ",NVIDIA,3000,30:;");
        lockNode("default", "train-0");

        try (FakeKubelet.PluginConnection plugin = fx.kubelet.connect(fx.pluginSocket())) {
            List<String> preferred = plugin.blocking.getPreferredAllocation(PreferredAllocationRequest.newBuilder()
                    .addContainerRequests(ContainerPreferredAllocationRequest.newBuilder()
                            .addAllAvailableDeviceIDs(List.of(GPU0 + "-0", GPU0 + "-1", GPU1 + "-0", GPU1 + "-1"))
                            .setAllocationSize(1))
                    .build()).getContainerResponses(0).getDeviceIDsList();
            assertThat(preferred).containsExactly(GPU1 + "-0");

            AllocateResponse response = plugin.blocking.allocate(allocate(GPU1 + "-0"));

            ContainerAllocateResponse c = response.getContainerResponses(0);
            Map<String, String> envs = new LinkedHashMap<>(c.getEnvsMap());
            assertThat(envs.remove("CUDA_DEVICE_MEMORY_SHARED_CACHE"))
                    .matches("/usr/local/vgpu/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\\.cache");
            assertThat(envs).containsExactlyInAnyOrderEntriesOf(Map.of(
                    "NVIDIA_VISIBLE_DEVICES", GPU1,
                    "CUDA_DEVICE_MEMORY_LIMIT_0", "3000m",
                    "CUDA_DEVICE_SM_LIMIT", "30",
                    "LIBCUDA_LOG_LEVEL", "1"));
            assertThat(c.getMountsList()).extracting(Mount::getContainerPath, Mount::getHostPath, Mount::getReadOnly).containsExactly(
                    tuple("/usr/local/vgpu/libvgpu.so", "/usr/local/vgpu/libvgpu.so.v2.10.0", true),
                    tuple("/usr/local/vgpu", "/usr/local/vgpu/containers/" + uid + "_train", false),
                    tuple("/tmp/vgpulock", "/tmp/vgpulock", false),
                    tuple("/etc/ld.so.preload", "/usr/local/vgpu/ld.so.preload", true));
        }

        Map<String, String> pod = podAnnotations("default", "train-0");
        assertThat(pod).containsEntry(HamiAnnotations.BIND_PHASE, "success")
                .containsEntry(HamiAnnotations.DEVICES_TO_ALLOCATE, ";;")
                .containsEntry(HamiAnnotations.DEVICES_ALLOCATED, GPU1 + ",NVIDIA,3000,30:;");
        assertThat(fx.lock()).isNull();
        Path cacheDir = fx.hostRoot.resolve("usr/local/vgpu/containers/" + uid + "_train");
        assertThat(cacheDir).isDirectory();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cacheDir))).isEqualTo("rwxrwxrwx");
        assertThat(fx.hostRoot.resolve("tmp/vgpulock")).isDirectory();
    }

    @Test
    void registersAgainWhenKubeletRestarts() throws Exception {
        start("node-restart", Map.of());
        assertThat(fx.kubelet.awaitRegistration(WAIT)).isNotNull();

        fx.kubelet.close();                      // kubelet stops: its socket disappears ...
        Files.deleteIfExists(fx.pluginSocket()); // ... and on start it wipes the plugin sockets
        fx.kubelet = FakeKubelet.start(fx.config.kubeletSocket());

        RegisterRequest again = fx.kubelet.awaitRegistration(WAIT);
        assertThat(again).isNotNull();
        assertThat(again.getEndpoint()).isEqualTo("vgpu-nvidia.sock");
        assertThat(eventually(WAIT, () -> Files.exists(fx.pluginSocket()))).isTrue();
        try (FakeKubelet.PluginConnection plugin = fx.kubelet.connect(fx.pluginSocket()).watch()) {
            assertThat(plugin.nextUpdate(WAIT).getDevicesCount()).isEqualTo(8);
        }
    }

    @Test
    void badAnnotationsFailThePodReleaseTheLockAndKeepThePluginServing() throws Exception {
        start("node-bad", Map.of());
        assertThat(fx.kubelet.awaitRegistration(WAIT)).isNotNull();
        try (FakeKubelet.PluginConnection plugin = fx.kubelet.connect(fx.pluginSocket()).watch()) {
            assertThat(plugin.nextUpdate(WAIT)).isNotNull();

            scheduledPod("default", "garbled", GPU0 + ",NVIDIA,lots,30:;");
            lockNode("default", "garbled");
            assertRejected(plugin, "invalid syntax");
            assertThat(podAnnotations("default", "garbled")).containsEntry(HamiAnnotations.BIND_PHASE, "failed");
            assertThat(fx.lock()).isNull();

            scheduledPod("default", "unannotated", null);
            lockNode("default", "unannotated");
            assertRejected(plugin, "device request not found");
            assertThat(podAnnotations("default", "unannotated")).containsEntry(HamiAnnotations.BIND_PHASE, "failed");
            assertThat(fx.lock()).isNull();

            scheduledPod("default", "two-gpus", GPU0 + ",NVIDIA,1000,10:" + GPU1 + ",NVIDIA,1000,10:;");
            lockNode("default", "two-gpus");
            assertRejected(plugin, "device number not matched");
            assertThat(podAnnotations("default", "two-gpus")).containsEntry(HamiAnnotations.BIND_PHASE, "failed");

            lockNode("default", "deleted-pod");
            assertRejected(plugin, "pods \"deleted-pod\" not found");
            assertThat(fx.lock()).as("a lock naming a deleted pod is released").isNull();

            lockNodeRaw("not-a-lock-value");
            assertRejected(plugin, "parsing time");
            assertThat(fx.lock()).as("an unparsable lock is left to the scheduler").isEqualTo("not-a-lock-value");

            assertThat(plugin.blocking.getDevicePluginOptions(Empty.getDefaultInstance()).getGetPreferredAllocationAvailable()).isTrue();
            assertThat(plugin.streamEnds).as("ListAndWatch is still open").isEmpty();
        }
    }

    private void assertRejected(FakeKubelet.PluginConnection plugin, String message) {
        assertThatThrownBy(() -> plugin.blocking.allocate(allocate(GPU0 + "-0")))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNKNOWN);
                    assertThat(e.getStatus().getDescription()).contains(message);
                });
    }

    private static AllocateRequest allocate(String... ids) {
        return AllocateRequest.newBuilder()
                .addContainerRequests(ContainerAllocateRequest.newBuilder().addAllDevicesIds(List.of(ids)))
                .build();
    }

    /**
     * A pod as the HAMi scheduler leaves it after filter + bind (to-allocate null = annotation missing).
     *
     * @return the pod's UID (the mock API server assigns it)
     */
    private String scheduledPod(String ns, String name, String toAllocate) {
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(HamiAnnotations.VGPU_NODE, fx.node);
        annotations.put(HamiAnnotations.VGPU_TIME, "1764470000");
        annotations.put(HamiAnnotations.BIND_PHASE, "allocating");
        annotations.put(HamiAnnotations.BIND_TIME, "1764470001");
        if (toAllocate != null) {
            annotations.put(HamiAnnotations.DEVICES_TO_ALLOCATE, toAllocate);
            annotations.put(HamiAnnotations.DEVICES_ALLOCATED, toAllocate);
        }
        Pod pod = new PodBuilder()
                .withNewMetadata().withNamespace(ns).withName(name).withAnnotations(annotations).endMetadata()
                .withNewSpec().withNodeName(fx.node)
                .addNewContainer().withName("train").withImage("cuda").endContainer()
                .endSpec()
                .withNewStatus().withPhase("Pending").endStatus()
                .build();
        return client.pods().inNamespace(ns).resource(pod).create().getMetadata().getUid();
    }

    private void lockNode(String ns, String name) {
        lockNodeRaw("2026-11-30T03:00:00Z," + ns + "," + name);
    }

    /**
     * Writes the lock the way HAMi's scheduler does: read, then update guarded by resourceVersion, and retry on 409.
     * The plugin's register loop writes the same node, so a single unguarded attempt would race it.
     */
    private void lockNodeRaw(String value) {
        for (int attempt = 1; ; attempt++) {
            try {
                client.nodes().withName(fx.node).edit(n -> {
                    n.getMetadata().setAnnotations(new LinkedHashMap<>(n.getMetadata().getAnnotations() == null
                            ? Map.of() : n.getMetadata().getAnnotations()));
                    n.getMetadata().getAnnotations().put(HamiAnnotations.NODE_LOCK, value);
                    return n;
                });
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == 5) {
                    throw e;
                }
            }
        }
    }

    private Map<String, String> podAnnotations(String ns, String name) {
        return client.pods().inNamespace(ns).withName(name).get().getMetadata().getAnnotations();
    }
}
