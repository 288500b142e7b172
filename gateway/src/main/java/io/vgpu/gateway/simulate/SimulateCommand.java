package io.vgpu.gateway.simulate;

import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.filter.FilterConfig;
import io.vgpu.gateway.core.filter.FilterDecider;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.core.webhook.WebhookConfig;
import io.vgpu.gateway.core.webhook.WebhookDecider;
import io.vgpu.state.model.NodeView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code vgpu-gateway simulate}: a synthetic cluster and a pod stream through the real scheduling core,
 * in-process, with a summary table. Deterministic for a seed; the defaults finish in seconds.
 */
@Command(name = "simulate", mixinStandardHelpOptions = true,
        description = "Schedule a synthetic pod stream on a synthetic GPU cluster, in-process, and report.")
public final class SimulateCommand implements Callable<Integer> {

    @Option(names = "--nodes", defaultValue = "100", description = "GPU nodes (default: ${DEFAULT-VALUE})")
    int nodes;

    @Option(names = "--gpus-per-node", defaultValue = "8", description = "GPUs per node (default: ${DEFAULT-VALUE})")
    int gpusPerNode;

    @Option(names = "--models", defaultValue = "A100-SXM4-80GB,V100,T4", split = ",",
            description = "GPU models, one per node round-robin; fragments of: A100-SXM4-80GB, A100-SXM4-40GB, "
                    + "H100, V100, L4, T4 (default: ${DEFAULT-VALUE})")
    List<String> models;

    @Option(names = "--split", defaultValue = "10", description = "deviceSplitCount (default: ${DEFAULT-VALUE})")
    int split;

    @Option(names = "--nvlink-every", defaultValue = "4",
            description = "every n-th node publishes NVLink pair scores, 0 = none (default: ${DEFAULT-VALUE})")
    int nvlinkEvery;

    @Option(names = "--pods", defaultValue = "1500", description = "pods to submit (default: ${DEFAULT-VALUE})")
    int pods;

    @Option(names = "--mix", defaultValue = WorkloadMix.DEFAULT,
            description = "request kinds and weights (default: ${DEFAULT-VALUE})")
    String mix;

    @Option(names = "--node-policy", defaultValue = "binpack", description = "binpack | spread (default: ${DEFAULT-VALUE})")
    String nodePolicy;

    @Option(names = "--gpu-policy", defaultValue = "spread",
            description = "binpack | spread | topology-aware | mutex | numa, or a chain (default: ${DEFAULT-VALUE})")
    String gpuPolicy;

    @Option(names = "--seed", defaultValue = "42", description = "random seed (default: ${DEFAULT-VALUE})")
    long seed;

    @Override
    public Integer call() {
        PrintStream out = System.out;
        List<GpuModel> gpuModels = new ArrayList<>();
        for (String m : models) {
            gpuModels.add(GpuModel.byName(m));
        }
        validate();
        List<SyntheticNode> cluster = ClusterGenerator.generate(
                new ClusterSpec(nodes, gpusPerNode, gpuModels, split, nvlinkEvery), seed);

        NvidiaConfig nvidia = NvidiaConfig.defaults();
        List<PodSpec> workload = workload(cluster, nvidia);
        Simulation simulation = new Simulation(
                new WebhookDecider(WebhookConfig.single("hami-scheduler", true, nvidia)),
                new FilterDecider(new FilterConfig(nvidia, nodePolicy, gpuPolicy)));

        out.printf(Locale.ROOT, "simulate: %d nodes x %d GPUs (%s), %d pods, node policy %s, GPU policy %s, seed %d%n",
                nodes, gpusPerNode, String.join(", ", gpuModels.stream().map(GpuModel::type).toList()), pods,
                nodePolicy, gpuPolicy, seed);
        ProgressBar bar = new ProgressBar(out, pods);
        SimulationReport report = simulation.run(cluster, workload, bar::update);
        bar.finish();
        out.print(report.table());
        return 0;
    }

    private void validate() {
        if (pods < 0) {
            throw new IllegalArgumentException("--pods must not be negative");
        }
        if (!Set.of("binpack", "spread").contains(nodePolicy)) {
            throw new IllegalArgumentException("--node-policy must be binpack or spread, not '" + nodePolicy + "'");
        }
    }

    private List<PodSpec> workload(List<SyntheticNode> cluster, NvidiaConfig nvidia) {
        Set<String> types = new LinkedHashSet<>();
        List<String> uuids = new ArrayList<>();
        for (SyntheticNode n : cluster) {
            NodeView v = FilterDecider.idleView(n.name(), n.annotations());
            if (v != null) {
                v.devices().forEach(d -> {
                    types.add(d.type());
                    uuids.add(d.id());
                });
            }
        }
        WorkloadGenerator generator = new WorkloadGenerator(WorkloadMix.parse(mix),
                new WorkloadGenerator.ResourceNames(nvidia.resourceCountName(), nvidia.resourceMemoryName(),
                        nvidia.resourceMemoryPercentageName(), nvidia.resourceCoreName()),
                List.copyOf(types), uuids, seed);
        List<PodSpec> out = new ArrayList<>(pods);
        for (int i = 0; i < pods; i++) {
            out.add(generator.next().pod());
        }
        return out;
    }
}
