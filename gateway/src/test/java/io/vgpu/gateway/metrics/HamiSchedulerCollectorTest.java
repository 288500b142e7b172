package io.vgpu.gateway.metrics;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.quota.QuotaBook;
import io.vgpu.gateway.testing.InMemoryClusterState;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.MigAllocationsCodec;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.MigAllocation;
import io.vgpu.state.model.MigPlacement;
import io.vgpu.state.model.NodeInventory;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodRef;
import io.vgpu.state.model.fixtures.GpuFixtures;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** HAMi's scheduler gauges (spec §13) from the shared state, and a scrape that promtool accepts. */
class HamiSchedulerCollectorTest {

    private static String scrape() {
        return scrape(new InMemoryClusterState());
    }

    private static String scrape(ClusterState state) {
        GpuDevice card = GpuFixtures.card("GPU-a").index(1).memMiB(8000).type("NVIDIA A100").build();
        state.registerNode(new NodeInventory("node1", List.of(card), Map.of(), Map.of()));
        state.reserve("node1", new PodRef("uid-1", "team", "pod-1"),
                new PodAllocation(List.of(List.of(new ContainerDevice(1, "GPU-a", "NVIDIA", 3000, 30))), 0), 0, 60_000);
        QuotaBook quotas = new QuotaBook("nvidia.com/gpumem", "nvidia.com/gpucores", 1);
        quotas.setLimit("team", "nvidia.com/gpumem", 10_000);
        quotas.addUsage("team", 3000, 30);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registry.getPrometheusRegistry().register(new HamiSchedulerCollector(state, quotas));
        return registry.scrape();
    }

    @Test
    void exportsHamisDeviceAndPodGaugesWithTheirLabels() {
        String text = scrape();
        assertThat(text).contains(
                "hami_gpu_memory_limit_bytes{device_index=\"1\",device_type=\"NVIDIA A100\",device_uuid=\"GPU-a\","
                        + "node=\"node1\",zone=\"vGPU\"} 8.388608E9",
                "hami_gpu_memory_allocated_bytes{device_cores=\"100\",device_index=\"1\",device_type=\"NVIDIA A100\","
                        + "device_uuid=\"GPU-a\",node=\"node1\",zone=\"vGPU\"} 3.145728E9",
                "hami_gpu_shared_count{device_index=\"1\",device_type=\"NVIDIA A100\",device_uuid=\"GPU-a\","
                        + "node=\"node1\",zone=\"vGPU\"} 1.0",
                "hami_gpu_core_allocated_ratio{device_index=\"1\",device_type=\"NVIDIA A100\",device_uuid=\"GPU-a\","
                        + "node=\"node1\",zone=\"vGPU\"} 30.0",
                "hami_node_gpu_memory_allocated_ratio{device_index=\"1\",device_uuid=\"GPU-a\",node=\"node1\","
                        + "zone=\"vGPU\"} 0.375",
                "hami_vgpu_memory_allocated_bytes{container_index=\"0\",device_uuid=\"GPU-a\",namespace=\"team\","
                        + "node=\"node1\",pod=\"pod-1\",zone=\"vGPU\"} 3.145728E9",
                "hami_resource_quota_used{limit=\"10000\",namespace=\"team\",quota_name=\"nvidia.com/gpumem\","
                        + "zone=\"vGPU\"} 3000.0",
                "hami_resource_quota_limit{namespace=\"team\",quota_name=\"nvidia.com/gpumem\",zone=\"vGPU\"} 10000.0");
    }

    @Test
    void aReplicaExportsOnlyTheNodesAndNamespacesWhoseKeyItOwns() {
        InMemoryClusterState all = new InMemoryClusterState();
        ClusterState ownsNothing = (ClusterState) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {ClusterState.class}, (proxy, method, args) -> {
                    if (method.getName().equals("ownsNode")) {
                        return false;
                    }
                    try {
                        return method.invoke(all, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });

        String text = scrape(ownsNothing);

        assertThat(all.node("node1")).isNotNull();
        assertThat(text).doesNotContain("hami_gpu_", "hami_vgpu_", "hami_node_gpu_", "hami_resource_quota_");
    }

    private static ObservedPod pod(String name, String node, String phase, boolean terminating, String migAllocations) {
        return new ObservedPod(new PodSpec(name, "team", "uid-" + name, "hami-scheduler", node, null,
                Map.of(HamiAnnotations.MIG_ALLOCATIONS, migAllocations), Map.of(), List.of(), List.of()), phase, terminating,
                true, "1");
    }

    private static String scrapeWithPods(ClusterState state, List<ObservedPod> pods) {
        GpuDevice card = GpuFixtures.card("GPU-a").index(1).slots(7).memMiB(40960).type("NVIDIA A100").mode("mig")
                .build();
        state.registerNode(new NodeInventory("node1", List.of(card), Map.of(), Map.of()));
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registry.getPrometheusRegistry().register(new HamiSchedulerCollector(state,
                new QuotaBook("nvidia.com/gpumem", "nvidia.com/gpucores", 1), () -> pods));
        return registry.scrape();
    }

    @Test
    void everyRealisedMigInstanceOfALivePodIsOneInfoSeries() {
        MigAllocation realized = MigAllocation.reserved(0, 0, "GPU-a", "2g.10gb", new MigPlacement(2, 2))
                .withRuntime("MIG-1", 4, 0);
        MigAllocation pending = MigAllocation.reserved(1, 0, "GPU-a", "1g.5gb", new MigPlacement(6, 1));
        String both = MigAllocationsCodec.encode(List.of(realized, pending));

        String text = scrapeWithPods(new InMemoryClusterState(), List.of(
                pod("running", "node1", "Running", false, both),
                pod("done", "node1", "Succeeded", false, MigAllocationsCodec.encode(List.of(realized.withRuntime("MIG-2", 5, 0)))),
                pod("deleting", "node1", "Running", true, MigAllocationsCodec.encode(List.of(realized.withRuntime("MIG-3", 6, 0)))),
                pod("broken", "node1", "Running", false, "[{")));

        assertThat(text).contains("hami_node_gpu_mig_instance_info{compute_instance_id=\"0\",device_index=\"1\","
                + "device_uuid=\"GPU-a\",gpu_instance_id=\"4\",mig_uuid=\"MIG-1\",node=\"node1\",placement_size=\"2\","
                + "placement_start=\"2\",profile=\"2g.10gb\",zone=\"vGPU\"} 1.0");
        assertThat(text).doesNotContain("MIG-2", "MIG-3", "1g.5gb");
    }

    @Test
    void migInstancesOfNodesAnotherReplicaOwnsAreLeftToIt() {
        InMemoryClusterState all = new InMemoryClusterState();
        ClusterState ownsNothing = (ClusterState) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {ClusterState.class}, (proxy, method, args) -> {
                    if (method.getName().equals("ownsNode")) {
                        return false;
                    }
                    try {
                        return method.invoke(all, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        String annotation = MigAllocationsCodec.encode(List.of(MigAllocation.reserved(0, 0, "GPU-a", "2g.10gb",
                new MigPlacement(2, 2)).withRuntime("MIG-1", 4, 0)));

        assertThat(scrapeWithPods(ownsNothing, List.of(pod("p", "node1", "Running", false, annotation))))
                .doesNotContain("hami_node_gpu_mig_instance_info");
    }

    @Test
    void promtoolAcceptsTheScrape() throws IOException, InterruptedException {
        assertThat(Promtool.findings(scrape())).isEmpty();
    }
}
