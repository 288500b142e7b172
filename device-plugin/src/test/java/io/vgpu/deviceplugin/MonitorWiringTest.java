package io.vgpu.deviceplugin;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.vgpu.deviceplugin.devices.FakeGpuSource;
import io.vgpu.deviceplugin.devices.NvmlDeviceSource;
import io.vgpu.deviceplugin.monitor.MonitorRegionFiles;
import io.vgpu.deviceplugin.testing.NodeFieldApiServer;
import io.vgpu.hamicore.FakeNvml;
import io.vgpu.hamicore.GpuInfo;
import io.vgpu.hamicore.Utilization;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.testsupport.Eventually;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static io.vgpu.deviceplugin.AgentFixture.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

/**
 * The vGPU monitor as {@link Main} wires it into the node agent: informer-backed pod lookups against
 * the fabric8 CRUD mock API server (taught {@code spec.nodeName}), region files in the temporary host root's
 * {@code usr/local/vgpu/containers}, {@code GET /metrics} on the configured port, HAMi's series checked
 * line by line and by {@code promtool check metrics}.
 */
@Timeout(60)
class MonitorWiringTest {

    private NodeFieldApiServer api;
    private KubernetesClient client;

    private static final String GPU0 = "GPU-11111111-2222-3333-4444-000000000000";
    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final long MIB = 1L << 20;

    @TempDir
    Path dir;
    private AgentFixture fx;

    /** A server per test: stopping the agent's informers can stall the mock (see {@link NodeFieldApiServer}). */
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

    private AgentFixture startWithFakeGpus(String node, Map<String, String> env) throws Exception {
        Files.writeString(dir.resolve("gpus.yaml"), AgentFixture.twoGpus());
        fx = AgentFixture.start(dir, node, client, new FakeGpuSource(dir.resolve("gpus.yaml")), monitorOn(env));
        return fx;
    }

    @Test
    void exportsHamiContainerSeriesOfAPodOnTheNodeAndDeletesOnlyDirectoriesOfUnknownPods() throws Exception {
        String node = "node-monitor";
        String uid = runningPod("team-a", "trainer-0", node, node);
        runningPod("team-b", "elsewhere", "node-other", "node-other");
        runningPod("team-b", "assigned-elsewhere", "node-other", node);
        Path containers = Files.createDirectories(dir.resolve("host/usr/local/vgpu/containers"));
        MonitorRegionFiles.v1().uuid(GPU0).limit(0, 3000 * MIB).process(1200 * MIB, 300 * MIB, 200 * MIB, 700 * MIB, 42)
                .lastKernelTime(Instant.now().getEpochSecond() - 30).writeTo(containers, uid, "worker");
        Path live = containers.resolve(uid + "_worker");
        Path stale = Files.createDirectories(containers.resolve("0b6f4a8e-dead-4f0a-9a0e-000000000000_gone"));
        // both older than the 1 s grace period: only the pod lookup can save a directory
        Files.setLastModifiedTime(live, FileTime.from(Instant.now().minusSeconds(3600)));
        Files.setLastModifiedTime(stale, FileTime.from(Instant.now().minusSeconds(3600)));

        startWithFakeGpus(node, Map.of("VGPU_MONITOR_RESYNC_INTERVAL", "1s"));

        String labels = "{container=\"worker\",device_uuid=\"" + GPU0 + "\",namespace=\"team-a\",pod=\"trainer-0\","
                + "vdevice_index=\"0\",zone=\"vGPU\"}";
        String used = "hami_vgpu_memory_used_bytes" + labels + " " + (double) (1200 * MIB);
        assertThat(eventually(WAIT, () -> samples(scrapeOk()).contains(used)))
                .as("the pod's region is exported once the pod caches have synced").isTrue();
        List<String> samples = samples(scrapeOk());
        assertThat(samples).contains(
                used,
                "hami_vgpu_memory_limit_bytes" + labels + " " + (double) (3000 * MIB),
                "hami_container_device_memory_bytes" + labels + " " + (double) (1200 * MIB),
                "hami_container_device_utilization_ratio" + labels + " 42.0",
                "hami_vgpu_memory_context_bytes" + labels + " " + (double) (300 * MIB),
                "hami_vgpu_memory_module_bytes" + labels + " " + (double) (200 * MIB),
                "hami_vgpu_memory_buffer_bytes" + labels + " " + (double) (700 * MIB));
        assertThat(samples).anyMatch(l -> l.startsWith("hami_container_last_kernel_elapsed_seconds" + labels + " "));
        assertThat(samples).filteredOn(l -> l.startsWith("hami_") && !l.startsWith("hami_build_info"))
                .as("every HAMi series is this pod's, with zone=\"vGPU\" (no host series: fake GPUs have no NVML)")
                .hasSize(8).allMatch(l -> l.contains("pod=\"trainer-0\"") && l.contains("zone=\"vGPU\""));
        assertThat(samples).anyMatch(l -> l.startsWith("hami_build_info{"));

        assertThat(eventually(WAIT, () -> !Files.exists(stale))).as("a directory of a pod not on the node is removed").isTrue();
        assertThat(live).as("the directory of a pod on the node is kept").isDirectory();
        try (var files = Files.list(live)) {
            assertThat(files.toList()).as("its region file is untouched").singleElement()
                    .satisfies(f -> assertThat(f.toString()).endsWith(".cache"));
        }
    }

    @Test
    void theScrapeWithHostSeriesFromNvmlPassesPromtool() throws Exception {
        String node = "node-promtool";
        startWithNvmlAndARegion(node, "team-c", Map.of());

        String scrape = scrapeOk();

        assertThat(samples(scrape)).as("host series from the source's NVML handle").contains(
                "hami_host_gpu_memory_used_bytes{device_index=\"0\",device_type=\"NVIDIA-Tesla T4\",device_uuid=\""
                        + GPU0 + "\",node=\"" + node + "\",zone=\"vGPU\"} " + (double) (1L << 30),
                "hami_host_gpu_utilization_ratio{device_index=\"0\",device_type=\"NVIDIA-Tesla T4\",device_uuid=\""
                        + GPU0 + "\",node=\"" + node + "\",zone=\"vGPU\"} 50.0",
                "hami_host_gpu_memory_controller_utilization_ratio{device_index=\"0\",device_type=\"NVIDIA-Tesla T4\","
                        + "device_uuid=\"" + GPU0 + "\",zone=\"vGPU\"} 20.0");
        PromtoolResult check = promtoolCheckMetrics(scrape);
        assertThat(check.exitCode()).as("promtool check metrics:%n%s%non the scrape:%n%s", check.output(), scrape).isZero();
        assertThat(check.output()).isBlank();
    }

    @Test
    void legacyNamesAreExportedAndFailOnlyPromtoolsNamingLint() throws Exception {
        startWithNvmlAndARegion("node-legacy", "team-d", Map.of("VGPU_LEGACY_METRICS", "true"));

        String scrape = scrapeOk();

        assertThat(samples(scrape)).contains("vGPU_device_memory_usage_in_bytes{ctrname=\"worker\",deviceuuid=\"" + GPU0
                + "\",podname=\"trainer-0\",podnamespace=\"team-d\",vdeviceid=\"0\",zone=\"vGPU\"} " + (double) (1200 * MIB));
        PromtoolResult check = promtoolCheckMetrics(scrape);
        // HAMi's legacy names are camelCase: the text parses (exit 1 would be a format error), only the lint objects (exit 3)
        assertThat(check.exitCode()).as(check.output()).isEqualTo(3);
        assertThat(check.output().lines().filter(l -> !l.isBlank()).toList()).containsExactlyInAnyOrder(
                "HostCoreUtilization metric names should be written in 'snake_case' not 'camelCase'",
                "HostGPUMemoryUsage metric names should be written in 'snake_case' not 'camelCase'",
                "vGPU_device_memory_limit_in_bytes metric names should be written in 'snake_case' not 'camelCase'",
                "vGPU_device_memory_usage_in_bytes metric names should be written in 'snake_case' not 'camelCase'");
    }

    /** The agent over an NVML with one GPU, a pod {@code <ns>/trainer-0} on the node with a region, the series exported. */
    private void startWithNvmlAndARegion(String node, String ns, Map<String, String> env) throws Exception {
        String uid = runningPod(ns, "trainer-0", node, node);
        MonitorRegionFiles.v1().uuid(GPU0).limit(0, 3000 * MIB).process(1200 * MIB, 300 * MIB, 200 * MIB, 700 * MIB, 42)
                .lastKernelTime(Instant.now().getEpochSecond() - 30)
                .writeTo(Files.createDirectories(dir.resolve("host/usr/local/vgpu/containers")), uid, "worker");
        FakeNvml nvml = FakeNvml.withGpus(new GpuInfo(0, GPU0, "Tesla T4", 16L << 30, 1L << 30, "00000000:3B:00.0", 0, false));
        nvml.setUtilization(0, new Utilization(50, 20));
        Map<String, String> all = monitorOn(env);
        all.put("VGPU_DEVICE_SOURCE", "nvml");
        fx = AgentFixture.start(dir, node, client, new NvmlDeviceSource(nvml, "nvml:fake"), all);
        assertThat(eventually(WAIT, () -> scrapeOk().contains("hami_vgpu_memory_used_bytes{"))).isTrue();
    }

    @Test
    void lookupsFailUntilThePodCachesSyncSoNoDirectoryIsDeleted() throws Exception {
        int closed = AgentFixture.freePort();
        KubernetesClient unreachable = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
                .withMasterUrl("http://127.0.0.1:" + closed).withRequestRetryBackoffLimit(0).build()).build();
        try {
            Path containers = Files.createDirectories(dir.resolve("host/usr/local/vgpu/containers"));
            Path unknown = Files.createDirectories(containers.resolve("0b6f4a8e-4c1d-4f0a-9a0e-000000000001_worker"));
            Files.setLastModifiedTime(unknown, FileTime.from(Instant.now().minusSeconds(3600)));
            Files.writeString(dir.resolve("gpus.yaml"), AgentFixture.twoGpus());

            fx = AgentFixture.startWithoutApiServer(dir, "node-unsynced", unreachable,
                    new FakeGpuSource(dir.resolve("gpus.yaml")), monitorOn(Map.of("VGPU_MONITOR_RESYNC_INTERVAL", "1ms")));

            HttpResponse<String> response = fx.scrape();
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(samples(response.body())).filteredOn(l -> l.startsWith("hami_"))
                    .singleElement().asString().startsWith("hami_build_info{");
            assertThat(samples(response.body())).as("the plugin's own health gauges, one per GPU")
                    .filteredOn(l -> l.startsWith("vgpu_device_healthy{")).hasSize(2);
            Eventually.within(WAIT, "fifteen feedback ticks, each with a failed lookup", () -> failedTicks() >= 15);
            assertThat(unknown).as("nothing is deleted while the pod caches have not synced").isDirectory();
        } finally {
            if (fx != null) {
                fx.close();
                fx = null;
            }
            unreachable.close();
        }
    }

    @Test
    void aDisabledMonitorServesNothing() throws Exception {
        startWithFakeGpus("node-no-monitor", Map.of("VGPU_MONITOR_ENABLED", "false"));
        assertThat(fx.kubelet.awaitRegistration(WAIT)).isNotNull();

        assertThatThrownBy(fx::scrape).isInstanceOf(ConnectException.class);
    }

    @Test
    void aBusyMetricsPortFailsTheStartWithAClearMessage() throws Exception {
        try (ServerSocket busy = new ServerSocket(0)) {
            Files.writeString(dir.resolve("gpus.yaml"), AgentFixture.twoGpus());
            AgentFixture prepared = AgentFixture.prepare(dir, "node-busy-port", client, monitorOn(
                    Map.of("VGPU_METRICS_BIND_ADDRESS", "0.0.0.0", "VGPU_METRICS_PORT", Integer.toString(busy.getLocalPort()))));
            fx = prepared;

            assertThatThrownBy(() -> prepared.startAgent(new FakeGpuSource(dir.resolve("gpus.yaml")))
                    .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasMessageContaining("vGPU monitor cannot serve metrics on 0.0.0.0:" + busy.getLocalPort());
            assertThat(prepared.pluginSocket()).as("the agent was closed: no plugin serves").doesNotExist();
        }
    }

    /** {@code env} with the monitor enabled (the fixture turns it off by default); an explicit VGPU_MONITOR_ENABLED is kept. */
    private static Map<String, String> monitorOn(Map<String, String> env) {
        Map<String, String> all = new HashMap<>(env);
        all.putIfAbsent("VGPU_MONITOR_ENABLED", "true");
        return all;
    }

    /** A running pod as the HAMi scheduler leaves it: bound to {@code node}, labelled for {@code assignedTo}. */
    private String runningPod(String ns, String name, String node, String assignedTo) {
        Pod pod = new PodBuilder()
                .withNewMetadata().withNamespace(ns).withName(name)
                .withLabels(Map.of(HamiAnnotations.VGPU_NODE, assignedTo))
                .withAnnotations(Map.of(HamiAnnotations.VGPU_NODE, assignedTo, HamiAnnotations.BIND_PHASE, "success"))
                .endMetadata()
                .withNewSpec().withNodeName(node)
                .addNewInitContainer().withName("setup").withImage("busybox").endInitContainer()
                .addNewContainer().withName("worker").withImage("cuda").endContainer()
                .endSpec()
                .withNewStatus().withPhase("Running").endStatus()
                .build();
        return client.pods().inNamespace(ns).resource(pod).create().getMetadata().getUid();
    }

    private String scrapeOk() {
        try {
            HttpResponse<String> response = fx.scrape();
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
            return response.body();
        } catch (IOException e) {
            throw new AssertionError("GET /metrics failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** {@code vgpu_monitor_feedback_ticks_total{outcome="failed"}} as scraped now (0 before the first). */
    private double failedTicks() {
        return samples(scrapeOk()).stream()
                .filter(l -> l.startsWith("vgpu_monitor_feedback_ticks_total{") && l.contains("outcome=\"failed\""))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    private static List<String> samples(String scrape) {
        return Arrays.stream(scrape.split("\n")).filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
    }

    private record PromtoolResult(int exitCode, String output) {
    }

    /** {@code promtool check metrics < scrape}; a missing promtool fails the test (CI installs it). */
    private static PromtoolResult promtoolCheckMetrics(String scrape) throws IOException, InterruptedException {
        Optional<Path> promtool = Arrays.stream(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(p -> !p.isBlank())
                .map(p -> Path.of(p, "promtool"))
                .filter(Files::isExecutable)
                .findFirst();
        if (promtool.isEmpty()) {
            fail("promtool is not on PATH (" + System.getenv("PATH") + "): install Prometheus' promtool "
                    + "(Debian/Ubuntu: apt-get install prometheus; scripts/test.sh does it) to check the metrics format");
        }
        Process process = new ProcessBuilder(promtool.get().toString(), "check", "metrics").redirectErrorStream(true).start();
        try (OutputStream in = process.getOutputStream()) {
            in.write(scrape.getBytes(StandardCharsets.UTF_8));
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("promtool check metrics did not finish in 30 s");
        }
        return new PromtoolResult(process.exitValue(), output);
    }
}
