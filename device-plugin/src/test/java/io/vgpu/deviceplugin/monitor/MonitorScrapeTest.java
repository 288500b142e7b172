package io.vgpu.deviceplugin.monitor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.vgpu.deviceplugin.core.monitor.BuildInfo;
import io.vgpu.deviceplugin.core.monitor.InMemoryPodDirectory;
import io.vgpu.deviceplugin.core.monitor.MonitoredPod;
import io.vgpu.deviceplugin.core.monitor.PodDirectory;
import io.vgpu.hamicore.FakeNvml;
import io.vgpu.hamicore.GpuInfo;
import io.vgpu.hamicore.NvmlException;
import io.vgpu.hamicore.Utilization;
import io.vgpu.state.codec.HamiAnnotations;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole scrape path on real parts: region files in a temporary {@code <hook>/vgpu/containers}
 * tree mapped by the lister, an in-memory NVML, pods in memory, Micrometer's Prometheus registry
 * writing the text format; the sample lines are compared exactly.
 */
class MonitorScrapeTest {

    private static final String NODE = "node-a";
    private static final String UID = "0b6f4a8e-4c1d-4f0a-9a0e-000000000001";
    private static final String GPU0 = "GPU-00000000-1111-2222-3333-444444444444";
    private static final String GPU1 = "GPU-55555555-6666-7777-8888-999999999999";
    private static final BuildInfo BUILD = new BuildInfo("1.2.3", "abc123", "2026-01-01", "java17", "javac",
            "linux/amd64");
    private static final String BUILD_LINE = "hami_build_info{build_date=\"2026-01-01\",compiler=\"javac\","
            + "go_version=\"java17\",platform=\"linux/amd64\",revision=\"abc123\",version=\"1.2.3\"} 1.0";

    @TempDir
    Path hook;
    private FakeNvml nvml;
    private InMemoryPodDirectory pods;

    @BeforeEach
    void setUp() {
        nvml = FakeNvml.withGpus(
                new GpuInfo(0, GPU0, "Tesla T4", 16L << 30, 1024, "00000000:3B:00.0", 0, false),
                new GpuInfo(1, GPU1, "A100-SXM4-40GB", 40L << 30, 2048, "00000000:86:00.0", 1, false));
        nvml.setUtilization(0, new Utilization(50, 20));
        nvml.setUtilization(1, new Utilization(7, 3));
        pods = new InMemoryPodDirectory();
    }

    private VgpuMonitor monitor(boolean legacy, Optional<FakeNvml> withNvml) {
        MonitorConfig defaults = MonitorConfig.defaults(NODE).withHookPath(hook).withLegacyMetrics(legacy);
        MonitorConfig config = new MonitorConfig(defaults.hookPath(), NODE, legacy, defaults.bindHost(),
                defaults.port(), defaults.scanInterval(), defaults.resyncInterval(), defaults.podLookupTimeout(),
                defaults.migApplyLock(), BUILD);
        return VgpuMonitor.create(config, withNvml.map(n -> n), pods,
                Clock.fixed(Instant.ofEpochSecond(160), ZoneOffset.UTC));
    }

    private static MonitoredPod pod(String uid, Map<String, String> labels, Map<String, String> annotations,
                                    List<String> init, List<String> containers) {
        return new MonitoredPod(uid, "team-a", "trainer-0", NODE, labels, annotations, init, containers);
    }

    private void trainerWithRegion() throws IOException {
        pods.put(pod(UID, Map.of(MonitoredPod.ASSIGNED_NODE_LABEL, NODE), Map.of(), List.of("init"),
                List.of("worker")));
        MonitorRegionFiles.v1().uuid(GPU0).limit(0, 10000).process(8000, 1000, 500, 300, 42).lastKernelTime(100)
                .writeTo(hook.resolve("vgpu/containers"), UID, "worker");
        // an init container's region never gets metrics (HAMi walks spec.containers only)
        MonitorRegionFiles.v1().uuid(GPU1).writeTo(hook.resolve("vgpu/containers"), UID, "init");
    }

    private static List<String> samples(String scrape) {
        return Arrays.stream(scrape.split("\n")).filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
    }

    @Test
    void scrapesHostAndContainerSeriesExactly() throws IOException {
        trainerWithRegion();
        VgpuMonitor monitor = monitor(false, Optional.of(nvml));
        assertThat(monitor.lister().update(Set.of(UID)).tracked()).isEqualTo(2);

        String scrape = monitor.registry().scrape();

        String ctr = "{container=\"worker\",device_uuid=\"" + GPU0 + "\",namespace=\"team-a\",pod=\"trainer-0\","
                + "vdevice_index=\"0\",zone=\"vGPU\"}";
        assertThat(samples(scrape)).containsExactlyInAnyOrder(
                "hami_host_gpu_memory_used_bytes{device_index=\"0\",device_type=\"NVIDIA-Tesla T4\",device_uuid=\""
                        + GPU0 + "\",node=\"node-a\",zone=\"vGPU\"} 1024.0",
                "hami_host_gpu_memory_used_bytes{device_index=\"1\",device_type=\"NVIDIA-A100-SXM4-40GB\","
                        + "device_uuid=\"" + GPU1 + "\",node=\"node-a\",zone=\"vGPU\"} 2048.0",
                "hami_host_gpu_utilization_ratio{device_index=\"0\",device_type=\"NVIDIA-Tesla T4\",device_uuid=\""
                        + GPU0 + "\",node=\"node-a\",zone=\"vGPU\"} 50.0",
                "hami_host_gpu_utilization_ratio{device_index=\"1\",device_type=\"NVIDIA-A100-SXM4-40GB\","
                        + "device_uuid=\"" + GPU1 + "\",node=\"node-a\",zone=\"vGPU\"} 7.0",
                "hami_host_gpu_memory_controller_utilization_ratio{device_index=\"0\",device_type=\"NVIDIA-Tesla T4\","
                        + "device_uuid=\"" + GPU0 + "\",zone=\"vGPU\"} 20.0",
                "hami_host_gpu_memory_controller_utilization_ratio{device_index=\"1\","
                        + "device_type=\"NVIDIA-A100-SXM4-40GB\",device_uuid=\"" + GPU1 + "\",zone=\"vGPU\"} 3.0",
                "hami_vgpu_memory_used_bytes" + ctr + " 8000.0",
                "hami_vgpu_memory_limit_bytes" + ctr + " 10000.0",
                "hami_container_device_memory_bytes" + ctr + " 8000.0",
                "hami_container_device_utilization_ratio" + ctr + " 42.0",
                "hami_vgpu_memory_context_bytes" + ctr + " 1000.0",
                "hami_vgpu_memory_module_bytes" + ctr + " 500.0",
                "hami_vgpu_memory_buffer_bytes" + ctr + " 300.0",
                "hami_container_last_kernel_elapsed_seconds" + ctr + " 60.0",
                BUILD_LINE);
        assertThat(scrape).contains("# TYPE hami_vgpu_memory_used_bytes gauge\n")
                .contains("# HELP hami_vgpu_memory_used_bytes vGPU device memory usage in bytes\n");
    }

    @Test
    void legacyNamesAreExportedBesideTheNewOnes() throws IOException {
        trainerWithRegion();
        nvml.failOn("nvmlDeviceGetCount_v2", -1, NvmlException.DRIVER_NOT_LOADED);
        VgpuMonitor monitor = monitor(true, Optional.of(nvml));
        monitor.lister().update(Set.of(UID));

        List<String> lines = samples(monitor.registry().scrape());

        String legacy = "{ctrname=\"worker\",deviceuuid=\"" + GPU0 + "\",podname=\"trainer-0\","
                + "podnamespace=\"team-a\",vdeviceid=\"0\",zone=\"vGPU\"}";
        assertThat(lines).contains(
                "vGPU_device_memory_usage_in_bytes" + legacy + " 8000.0",
                "vGPU_device_memory_limit_in_bytes" + legacy + " 10000.0",
                "Device_utilization_desc_of_container" + legacy + " 42.0",
                "Device_last_kernel_of_container" + legacy + " 60.0",
                "Device_memory_desc_of_container{context=\"1000\",ctrname=\"worker\",data=\"300\",deviceuuid=\""
                        + GPU0 + "\",module=\"500\",offset=\"6200\",podname=\"trainer-0\",podnamespace=\"team-a\","
                        + "vdeviceid=\"0\",zone=\"vGPU\"} 8000.0");
        assertThat(lines).noneMatch(l -> l.startsWith("hami_host_gpu") || l.startsWith("HostGPU"));
        assertThat(lines).hasSize(14);
    }

    @Test
    void nvmlErrorsDropOnlyTheAffectedSeries() {
        nvml.failOn("nvmlDeviceGetMemoryInfo", 0, NvmlException.NOT_SUPPORTED);
        nvml.failOn("nvmlDeviceGetUtilizationRates", 1, NvmlException.UNKNOWN);
        VgpuMonitor monitor = monitor(false, Optional.of(nvml));

        List<String> lines = samples(monitor.registry().scrape());

        assertThat(lines).filteredOn(l -> l.startsWith("hami_host")).extracting(l -> l.substring(0, l.indexOf('{'))
                + (l.contains("device_index=\"0\"") ? "#0" : "#1")).containsExactlyInAnyOrder(
                "hami_host_gpu_memory_used_bytes#1",
                "hami_host_gpu_utilization_ratio#0",
                "hami_host_gpu_memory_controller_utilization_ratio#0");
        assertThat(monitor.collector().gather().problems()).singleElement().asString()
                .contains("GPU device 1").contains("GetUtilizationRates").contains("NVML_ERROR_UNKNOWN");
    }

    @Test
    void withoutNvmlOnlyContainerSeriesAreExported() throws IOException {
        trainerWithRegion();
        VgpuMonitor monitor = monitor(false, Optional.empty());
        monitor.lister().update(Set.of(UID));

        assertThat(samples(monitor.registry().scrape())).hasSize(9).noneMatch(l -> l.startsWith("hami_host"));
    }

    @Test
    void podsWithoutTheHamiNodeLabelGetNoContainerSeries() throws IOException {
        trainerWithRegion();
        pods.put(pod(UID, Map.of(), Map.of(), List.of("init"), List.of("worker")));
        VgpuMonitor monitor = monitor(false, Optional.empty());
        monitor.lister().update(Set.of(UID));

        assertThat(samples(monitor.registry().scrape())).containsExactly(BUILD_LINE);
    }

    @Test
    void aFailedPodLookupKeepsTheHostSeries() throws IOException {
        trainerWithRegion();
        VgpuMonitor monitor = monitor(false, Optional.of(nvml));
        monitor.lister().update(Set.of(UID));
        pods.failWith(new IllegalStateException("informer not synced"));

        List<String> lines = samples(monitor.registry().scrape());

        assertThat(lines).hasSize(7).allMatch(l -> l.startsWith("hami_host") || l.equals(BUILD_LINE));
        assertThat(monitor.collector().gather().problems()).singleElement().asString()
                .contains("failed to list pods").contains("informer not synced");
    }

    @Test
    void aBrokenPodDirectoryCannotFailTheScrape() {
        PodDirectory broken = new PodDirectory() {
            @Override
            public CompletionStage<List<MonitoredPod>> podsOnNode(String node) {
                return CompletableFuture.completedFuture(null);
            }

            @Override
            public CompletionStage<List<MonitoredPod>> podsAssignedTo(String node) {
                return CompletableFuture.completedFuture(null);
            }
        };
        VgpuMonitor monitor = VgpuMonitor.create(MonitorConfig.defaults(NODE).withHookPath(hook), Optional.of(nvml),
                broken, Clock.systemUTC());

        assertThat(samples(monitor.registry().scrape())).filteredOn(l -> l.startsWith("hami_host")).hasSize(6);
        assertThat(monitor.collector().gather().problems()).anySatisfy(p -> assertThat(p)
                .contains("collecting containers failed").contains("NullPointerException"));
    }

    @Test
    void migAllocationsBecomeInfoSeriesAndABadAnnotationIsSkipped() {
        String allocations = "[{\"containerIndex\":1,\"deviceIndex\":0,\"gpuUUID\":\"" + GPU1 + "\","
                + "\"profile\":\"1g.10gb\",\"placement\":{\"start\":6,\"size\":1},\"migUUID\":\"MIG-abc\","
                + "\"gpuInstanceID\":9,\"computeInstanceID\":0},"
                + "{\"containerIndex\":0,\"deviceIndex\":0,\"gpuUUID\":\"" + GPU1 + "\",\"profile\":\"1g.10gb\","
                + "\"placement\":{\"start\":5,\"size\":1}}]";
        pods.put(pod(UID, Map.of(MonitoredPod.ASSIGNED_NODE_LABEL, NODE),
                Map.of(HamiAnnotations.MIG_ALLOCATIONS, allocations), List.of("init"), List.of("worker")));
        pods.put(new MonitoredPod("uid-2", "team-b", "broken", NODE, Map.of(MonitoredPod.ASSIGNED_NODE_LABEL, NODE),
                Map.of(HamiAnnotations.MIG_ALLOCATIONS, "{not json"), List.of(), List.of("c")));
        VgpuMonitor monitor = monitor(true, Optional.empty());

        List<String> lines = samples(monitor.registry().scrape());

        assertThat(lines).containsExactlyInAnyOrder(
                "hami_mig_device_info{compute_instance_id=\"0\",container=\"worker\",device_uuid=\"" + GPU1 + "\","
                        + "gpu_instance_id=\"9\",mig_uuid=\"MIG-abc\",namespace=\"team-a\",pod=\"trainer-0\","
                        + "profile=\"1g.10gb\",vdevice_index=\"0\",zone=\"vGPU\"} 1.0",
                "MigInfo{ctrname=\"worker\",deviceuuid=\"" + GPU1 + "\",instanceid=\"9\",podname=\"trainer-0\","
                        + "podnamespace=\"team-a\",vdeviceid=\"0\",zone=\"vGPU\"} 1.0",
                BUILD_LINE);
        assertThat(monitor.collector().gather().problems()).singleElement().asString()
                .contains("team-b/broken").contains("invalid JSON");
    }

    @Test
    void aRegionWithAnUninitialisedUuidExportsNothingForThatDevice() throws IOException {
        pods.put(pod(UID, Map.of(MonitoredPod.ASSIGNED_NODE_LABEL, NODE), Map.of(), List.of(), List.of("worker")));
        Path file = MonitorRegionFiles.v1().uuid(GPU0).writeTo(hook.resolve("vgpu/containers"), UID, "worker");
        byte[] bytes = Files.readAllBytes(file);
        bytes[64] = 0; // first byte of uuids[0]
        Files.write(file, bytes);
        VgpuMonitor monitor = monitor(false, Optional.empty());
        monitor.lister().update(Set.of(UID));

        assertThat(samples(monitor.registry().scrape())).containsExactly(BUILD_LINE);
    }
}
