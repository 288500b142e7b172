package io.vgpu.deviceplugin;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.vgpu.deviceplugin.devices.NvmlDeviceSource;
import io.vgpu.deviceplugin.v1beta1.Device;
import io.vgpu.deviceplugin.v1beta1.ListAndWatchResponse;
import io.vgpu.hamicore.FakeNvml;
import io.vgpu.hamicore.GpuInfo;
import io.vgpu.hamicore.Nvml;
import io.vgpu.hamicore.NvmlException;
import io.vgpu.hamicore.XidEvent;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.testsupport.Eventually;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.vgpu.deviceplugin.AgentFixture.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * NVML as the device source (hamicore's in-memory {@link FakeNvml}, same contract as the JNI one): XID
 * health reaching kubelet and the node registration, and NVML errors that must never crash the agent.
 */
@EnableKubernetesMockClient(crud = true)
@Timeout(60)
class NvmlHealthEndToEndTest {

    static KubernetesClient client;

    private static final String GPU0 = "GPU-aaaaaaaa-0000-4000-8000-000000000000";
    private static final String GPU1 = "GPU-aaaaaaaa-0000-4000-8000-000000000001";
    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path dir;
    private AgentFixture fx;
    private final FakeNvml nvml = FakeNvml.withGpus(
            new GpuInfo(0, GPU0, "Tesla T4", 16L << 30, 0, "00000000:3B:00.0", 0, false),
            new GpuInfo(1, GPU1, "Tesla T4", 16L << 30, 0, "00000000:86:00.0", 1, false));
    /** Memory reads of the agent's that failed (through {@link #counted}). */
    private final AtomicInteger failedMemoryReads = new AtomicInteger();

    @AfterEach
    void stop() throws Exception {
        if (fx != null) {
            fx.close();
        }
    }

    private AgentFixture start(String node) throws Exception {
        return start(node, Map.of());
    }

    private AgentFixture start(String node, Map<String, String> extraEnv) throws Exception {
        Map<String, String> env = new java.util.HashMap<>(extraEnv);
        env.put("VGPU_DEVICE_SOURCE", "nvml");
        fx = AgentFixture.start(dir, node, client, new NvmlDeviceSource(counted(nvml), "nvml:fake"), env);
        assertThat(fx.kubelet.awaitRegistration(WAIT)).isNotNull();
        return fx;
    }

    /** {@code nvml} as the agent sees it, counting the memory reads that failed. */
    private Nvml counted(Nvml nvml) {
        return (Nvml) Proxy.newProxyInstance(Nvml.class.getClassLoader(), new Class<?>[] {Nvml.class}, (proxy, method, args) -> {
            try {
                return method.invoke(nvml, args);
            } catch (InvocationTargetException e) {
                if (method.getName().equals("memory")) {
                    failedMemoryReads.incrementAndGet();
                }
                throw e.getCause();
            }
        });
    }

    private static long unhealthy(ListAndWatchResponse r, String gpu) {
        return r.getDevicesList().stream().filter(d -> d.getID().startsWith(gpu + "-") && "Unhealthy".equals(d.getHealth())).count();
    }

    @Test
    void criticalXidMarksOneGpuUnhealthyForKubeletAndTheScheduler() throws Exception {
        start("nvml-xid");
        try (FakeKubelet.PluginConnection plugin = fx.kubelet.connect(fx.pluginSocket()).watch()) {
            ListAndWatchResponse first = plugin.nextUpdate(WAIT);
            assertThat(first.getDevicesList()).extracting(Device::getHealth).containsOnly("Healthy").hasSize(8);

            nvml.injectXid(XidEvent.critical(GPU1, 43));   // an application error: ignored
            assertThat(plugin.nextUpdate(Duration.ofMillis(500))).isNull();

            nvml.injectXid(XidEvent.critical(GPU1, 79));   // fallen off the bus
            ListAndWatchResponse update = plugin.nextUpdate(WAIT);
            assertThat(unhealthy(update, GPU1)).isEqualTo(4);
            assertThat(unhealthy(update, GPU0)).isZero();
        }
        assertThat(eventually(WAIT, () -> {
            String register = fx.nodeAnnotations().getOrDefault(HamiAnnotations.NODE_NVIDIA_REGISTER, "");
            return register.contains("\"id\":\"" + GPU0 + "\"") && register.endsWith("\"numa\":1,\"mode\":\"hami-core\"}]");
        })).as("the scheduler sees GPU1 without health:true").isTrue();
    }

    @Test
    void withRecoveryOnANonFatalXidComesBackAfterTheQuietPeriodAndAFatalOneNever() throws Exception {
        start("nvml-recover", Map.of("VGPU_HEALTH_RECOVERY", "true", "VGPU_HEALTH_RECOVERY_QUIET", "400ms",
                "VGPU_HEALTH_PROBE_INTERVAL", "100ms"));
        try (FakeKubelet.PluginConnection plugin = fx.kubelet.connect(fx.pluginSocket()).watch()) {
            assertThat(unhealthy(plugin.nextUpdate(WAIT), GPU1)).isZero();

            nvml.failOn("nvmlDeviceGetMemoryInfo", 1, NvmlException.GPU_IS_LOST);   // the probe fails: no recovery yet
            nvml.injectXid(XidEvent.critical(GPU1, 94));                            // contained ECC error: recoverable
            assertThat(unhealthy(plugin.nextUpdate(WAIT), GPU1)).isEqualTo(4);
            assertThat(plugin.nextUpdate(Duration.ofMillis(1200))).as("probe failing: still unhealthy").isNull();

            nvml.clearFailures();
            ListAndWatchResponse back = plugin.nextUpdate(WAIT);
            assertThat(back).isNotNull();
            assertThat(unhealthy(back, GPU1)).isZero();

            nvml.injectXid(XidEvent.critical(GPU0, 79));                            // fallen off the bus: fatal
            assertThat(unhealthy(plugin.nextUpdate(WAIT), GPU0)).isEqualTo(4);
            assertThat(plugin.nextUpdate(Duration.ofMillis(1200))).as("a fatal XID never recovers").isNull();
        }
        assertThat(eventually(WAIT, () -> {
            var reasons = client.v1().events().inNamespace("default").list().getItems().stream()
                    .filter(e -> "nvml-recover".equals(e.getInvolvedObject().getName()))
                    .map(e -> e.getReason() + ":" + e.getMessage()).toList();
            return reasons.stream().anyMatch(r -> r.startsWith("GpuHealthy:") && r.contains(GPU1))
                    && reasons.stream().anyMatch(r -> r.startsWith("GpuUnhealthy:") && r.contains("XID 79 (fatal)"));
        })).as("every transition is a Node Event").isTrue();
    }

    @Test
    void withRecoveryOffAnyXidIsSticky() throws Exception {
        start("nvml-sticky", Map.of("VGPU_HEALTH_RECOVERY_QUIET", "100ms", "VGPU_HEALTH_PROBE_INTERVAL", "50ms"));
        try (FakeKubelet.PluginConnection plugin = fx.kubelet.connect(fx.pluginSocket()).watch()) {
            plugin.nextUpdate(WAIT);
            nvml.injectXid(XidEvent.critical(GPU1, 94));
            assertThat(unhealthy(plugin.nextUpdate(WAIT), GPU1)).isEqualTo(4);
            assertThat(plugin.nextUpdate(Duration.ofMillis(800))).as("HAMi's behaviour: no way back").isNull();
        }
    }

    @Test
    void eventWaitErrorsAndFailedRegistrationsMarkDevicesUnhealthyWithoutStoppingTheAgent() throws Exception {
        nvml.failOn("nvmlDeviceRegisterEvents", 0, NvmlException.GPU_IS_LOST);
        start("nvml-wait");
        try (FakeKubelet.PluginConnection plugin = fx.kubelet.connect(fx.pluginSocket()).watch()) {
            ListAndWatchResponse first = plugin.nextUpdate(WAIT);
            assertThat(unhealthy(first, GPU0)).as("registration failed at start").isEqualTo(4);
            assertThat(unhealthy(first, GPU1)).isZero();

            nvml.failOn("nvmlEventSetWait_v2", -1, NvmlException.GPU_IS_LOST);
            ListAndWatchResponse update = plugin.nextUpdate(WAIT);
            assertThat(unhealthy(update, GPU0) + unhealthy(update, GPU1)).isEqualTo(8);
            assertThat(plugin.streamEnds).isEmpty();
        }
    }

    @Test
    void nvmlErrorsDuringScansKeepTheLastRegistrationAndTheServer() throws Exception {
        start("nvml-scan");
        assertThat(eventually(WAIT, () -> fx.nodeAnnotations().containsKey(HamiAnnotations.NODE_NVIDIA_REGISTER))).isTrue();
        String registered = fx.nodeAnnotations().get(HamiAnnotations.NODE_NVIDIA_REGISTER);

        int failed = failedMemoryReads.get();
        nvml.failOn("nvmlDeviceGetMemoryInfo", -1, NvmlException.GPU_IS_LOST);
        // each round's scan fails on its first memory read; the third failure comes after two rounds handled theirs
        Eventually.within(WAIT, "three failing register rounds", () -> failedMemoryReads.get() >= failed + 3);

        assertThat(fx.nodeAnnotations()).containsEntry(HamiAnnotations.NODE_NVIDIA_REGISTER, registered);
        try (FakeKubelet.PluginConnection plugin = fx.kubelet.connect(fx.pluginSocket()).watch()) {
            assertThat(plugin.nextUpdate(WAIT).getDevicesCount()).isEqualTo(8);
        }
    }

    @Test
    void nvmlUnusableAtStartIsAClearError() throws Exception {
        fx = AgentFixture.prepare(dir, "nvml-down", client, Map.of("VGPU_DEVICE_SOURCE", "nvml"));
        nvml.failOn("nvmlDeviceGetCount_v2", -1, NvmlException.DRIVER_NOT_LOADED);

        assertThatThrownBy(() -> fx.startAgent(new NvmlDeviceSource(nvml, "nvml:fake")).toCompletionStage().toCompletableFuture()
                .get(20, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(NvmlException.class).hasMessageContaining("nvmlDeviceGetCount_v2");
        assertThat(fx.kubelet.awaitRegistration(Duration.ofMillis(300))).as("nothing registered").isNull();
    }
}
