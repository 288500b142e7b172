package io.vgpu.gateway.simulate;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.filter.FilterConfig;
import io.vgpu.gateway.core.filter.FilterDecider;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.core.webhook.WebhookConfig;
import io.vgpu.gateway.core.webhook.WebhookDecider;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * {@code vgpu-gateway simulate}: a synthetic GPU cluster and a pod stream, everything in-process, with a
 * summary table. Three ways to run it:
 * <ul>
 *   <li>{@code --mode http} (default): the real gateway ({@link SimulatedCluster}: verticles, embedded
 *       Hazelcast, informers on a simulated API server) driven over HTTP by {@link GatewaySimulation};</li>
 *   <li>{@code --mode core}: the scheduling core alone, no HTTP, no API server ({@link Simulation});</li>
 *   <li>{@code --serve}: the simulated cluster and the gateway's endpoints stay up until interrupted, for curl,
 *       a load tool or a real kube-scheduler.</li>
 * </ul>
 * The cluster and the pods are deterministic for a seed; bad options are an {@link IllegalArgumentException}
 * (exit status 2).
 */
@Command(name = "simulate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Schedule a synthetic pod stream on a synthetic GPU cluster, in-process, and report placement, "
                + "utilisation, fragmentation, throughput and latency.",
            "--mode http (default) runs the real gateway (webhook, filter and bind over HTTP, embedded Hazelcast, "
                + "informers on a simulated Kubernetes API server, a simulated device plugin); --mode core runs "
                + "only the scheduling core; --serve keeps the simulated cluster and the endpoints up until Ctrl-C."})
public final class SimulateCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--mode", defaultValue = "http",
            description = "http: the real gateway over HTTP; core: the scheduling core only (default: ${DEFAULT-VALUE})")
    String mode;

    @Option(names = "--nodes", defaultValue = "16", description = "GPU nodes (default: ${DEFAULT-VALUE})")
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

    @Option(names = "--pods", defaultValue = "240", description = "pods to submit (default: ${DEFAULT-VALUE})")
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

    @Option(names = "--concurrency", defaultValue = "4",
            description = "http mode: pods in flight at once (default: ${DEFAULT-VALUE})")
    int concurrency;

    @Option(names = "--device-plugin-delay", defaultValue = "0", paramLabel = "MS",
            description = "http mode and --serve: milliseconds the simulated device plugin takes to allocate a bound "
                    + "pod before it reports success and releases the node lock (default: ${DEFAULT-VALUE})")
    long devicePluginDelayMillis;

    @Option(names = "--serve", description = "keep the simulated cluster and the gateway up until interrupted "
            + "(ignores --pods, --mix, --concurrency and --mode)")
    boolean serve;

    @Option(names = "--port", defaultValue = "0",
            description = "--serve: the gateway's API port, 0 = any free port (default: ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--metrics-port", defaultValue = "0",
            description = "--serve: the gateway's metrics port, 0 = any free port (default: ${DEFAULT-VALUE})")
    int metricsPort;

    @Option(names = "--report", paramLabel = "FILE",
            description = "also write a self-contained HTML report (utilisation heatmap, fragmentation over time, "
                    + "placement latency, failures by reason) to FILE")
    Path report;

    @Option(names = "--compare-policies",
            description = "with --report: run binpack and spread node policies on the same cluster and pods, side "
                    + "by side (ignores --node-policy)")
    boolean comparePolicies;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        validate();
        List<SyntheticNode> cluster = cluster();
        if (serve) {
            SimulatedCluster running = startServing(out, cluster);
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                out.println("simulate: stopping");
                out.flush();
                running.close();
                stopped.countDown();
            }, "vgpu-simulate-shutdown"));
            stopped.await();
            return 0;
        }
        NvidiaConfig nvidia = NvidiaConfig.defaults();
        List<PodSpec> workload = Workloads.generate(cluster, nvidia, mix, pods, seed);
        out.printf(Locale.ROOT, "simulate: %d nodes x %d GPUs (%s), %d pods, node policy %s, GPU policy %s, seed %d%n",
                nodes, gpusPerNode, String.join(", ", gpuModels().stream().map(GpuModel::type).toList()), pods,
                nodePolicy, gpuPolicy, seed);
        if (report != null) {
            ReportRunner.run(out, new ReportRunner.Options(mode, cluster, workload, nvidia,
                    comparePolicies ? List.of("binpack", "spread") : List.of(nodePolicy), gpuPolicy, concurrency,
                    devicePluginDelayMillis, List.of(String.format(Locale.ROOT,
                            "%d nodes x %d GPUs, %d pods (%s), mode %s, seed %d", nodes, gpusPerNode, pods, mix,
                            mode, seed))), report);
            return 0;
        }
        if ("core".equals(mode)) {
            printTable(out, runCore(out, cluster, workload, nvidia));
        } else {
            runHttp(out, cluster, workload, nvidia);
        }
        return 0;
    }

    private SimulationReport runCore(PrintWriter out, List<SyntheticNode> cluster, List<PodSpec> workload,
                                     NvidiaConfig nvidia) {
        Simulation simulation = new Simulation(
                new WebhookDecider(WebhookConfig.single("hami-scheduler", true, nvidia)),
                new FilterDecider(new FilterConfig(nvidia, nodePolicy, gpuPolicy)));
        ProgressBar bar = new ProgressBar(out, pods);
        SimulationReport report = simulation.run(cluster, workload, bar::update);
        bar.finish();
        return report;
    }

    private static void printTable(PrintWriter out, SimulationReport report) {
        out.print(report.table());
        out.flush();
    }

    /** Runs the pods through the real gateway and prints the table (before the cluster stops). */
    private void runHttp(PrintWriter out, List<SyntheticNode> cluster, List<PodSpec> workload, NvidiaConfig nvidia) {
        SimulationLogs.quiet();
        long t0 = System.nanoTime();
        try (SimulatedCluster running = SimulatedCluster.start(settings(0, 0), cluster)) {
            out.printf(Locale.ROOT, "simulate: gateway ready at %s (API server %s) in %.1f s%n", running.gatewayUrl(),
                    running.apiServer().url(), (System.nanoTime() - t0) / 1e9);
            ProgressBar bar = new ProgressBar(out, pods);
            SimulationReport report = new GatewaySimulation(running, concurrency, nvidia).run(workload, bar::update);
            bar.finish();
            printTable(out, report);
        }
    }

    /**
     * {@code --serve}: starts the simulated cluster and prints how to reach it. The caller owns the result.
     */
    SimulatedCluster startServing(PrintWriter out, List<SyntheticNode> cluster) {
        SimulatedCluster running = SimulatedCluster.start(settings(port, metricsPort), cluster);
        try {
            printServing(out, running);
            return running;
        } catch (RuntimeException e) {
            running.close();
            throw e;
        }
    }

    private void printServing(PrintWriter out, SimulatedCluster running) {
        String gw = running.gatewayUrl();
        String api = running.apiServer().url();
        Example examples = writeExample(running);
        out.printf(Locale.ROOT, "simulate --serve: %d nodes x %d GPUs, node policy %s, GPU policy %s, seed %d%n", nodes,
                gpusPerNode, nodePolicy, gpuPolicy, seed);
        out.println("  webhook        POST " + gw + "/webhook   (AdmissionReview v1/v1beta1)");
        out.println("  filter         POST " + gw + "/filter    (kube-scheduler extender, nodeCacheCapable)");
        out.println("  bind           POST " + gw + "/bind");
        out.println("  health         GET  " + gw + "/healthz   " + gw + "/readyz");
        out.println("  metrics        GET  " + running.metricsUrl());
        out.println("  API server          " + api + "   (simulated; kubeconfig " + running.kubeconfig() + ")");
        out.println("  device plugin       simulated: a bound pod is reported allocated and its node lock released "
                + devicePluginDelayMillis + " ms after the binding");
        out.println("  nodes (" + running.nodeNames().size() + ")");
        printWrapped(out, running.nodeNames(), "                 ");
        out.println("try it: pod default/demo (1 GPU, 4 GiB) is waiting in the API server; filter it, then bind it:");
        out.println("  curl -s -H 'Content-Type: application/json' -d @" + examples.filter() + " " + gw + "/filter");
        out.println("  curl -s -H 'Content-Type: application/json' -d '{\"PodName\":\"demo\",\"PodNamespace\":"
                + "\"default\",\"PodUID\":\"" + examples.uid() + "\",\"Node\":\"<the node /filter chose>\"}' "
                + gw + "/bind");
        out.println("Ctrl-C stops the gateway and the simulated cluster.");
        out.flush();
    }

    /**
     * The example of the banner.
     *
     * @param filter the ExtenderArgs file of the demo pod
     * @param uid    the demo pod's UID
     */
    private record Example(Path filter, String uid) {
    }

    /** Creates the demo pod (as the webhook leaves it) and writes its ExtenderArgs to {@code filter.json}. */
    private static Example writeExample(SimulatedCluster running) {
        String manifest = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"demo\",\"namespace\":"
                + "\"default\"},\"spec\":{\"schedulerName\":\"hami-scheduler\",\"containers\":[{\"name\":\"main\","
                + "\"image\":\"busybox\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"1\",\"nvidia.com/gpumem\":"
                + "\"4096\"}}}]}}";
        KubernetesClient client = running.client();
        Pod created = client.pods().inNamespace("default")
                .resource(client.getKubernetesSerialization().unmarshal(manifest, Pod.class)).create();
        StringBuilder names = new StringBuilder();
        running.nodeNames().forEach(n -> names.append(names.isEmpty() ? "" : ",").append('"').append(n).append('"'));
        Path file = running.kubeconfig().resolveSibling("filter.json");
        try {
            Files.writeString(file, "{\"Pod\":" + client.getKubernetesSerialization().asJson(created)
                    + ",\"NodeNames\":[" + names + "]}", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + file + ": " + e.getMessage(), e);
        }
        return new Example(file, created.getMetadata().getUid());
    }

    private static void printWrapped(PrintWriter out, List<String> words, String indent) {
        StringBuilder line = new StringBuilder(indent);
        for (String w : words) {
            if (line.length() > indent.length() && line.length() + w.length() + 1 > 110) {
                out.println(line);
                line = new StringBuilder(indent);
            }
            line.append(line.length() > indent.length() ? " " : "").append(w);
        }
        if (line.length() > indent.length()) {
            out.println(line);
        }
    }

    private SimulatedCluster.Settings settings(int apiPort, int metrics) {
        return new SimulatedCluster.Settings(nodePolicy, gpuPolicy, "127.0.0.1", apiPort, metrics, 0,
                Duration.ofMillis(devicePluginDelayMillis));
    }

    private void validate() {
        if (!Set.of("http", "core").contains(mode)) {
            throw new IllegalArgumentException("--mode must be http or core, not '" + mode + "'");
        }
        if (pods < 0) {
            throw new IllegalArgumentException("--pods must not be negative");
        }
        if (!Set.of("binpack", "spread").contains(nodePolicy)) {
            throw new IllegalArgumentException("--node-policy must be binpack or spread, not '" + nodePolicy + "'");
        }
        if (concurrency < 1) {
            throw new IllegalArgumentException("--concurrency must be at least 1, not " + concurrency);
        }
        if (devicePluginDelayMillis < 0) {
            throw new IllegalArgumentException("--device-plugin-delay must not be negative");
        }
        if (comparePolicies && report == null) {
            throw new IllegalArgumentException("--compare-policies needs --report FILE");
        }
        if (report != null && serve) {
            throw new IllegalArgumentException("--report runs a workload; it cannot be combined with --serve");
        }
        if (port < 0 || port > 65_535 || metricsPort < 0 || metricsPort > 65_535) {
            throw new IllegalArgumentException("--port and --metrics-port must be 0..65535");
        }
    }

    /** The synthetic cluster the options describe. */
    List<SyntheticNode> cluster() {
        return ClusterGenerator.generate(new ClusterSpec(nodes, gpusPerNode, gpuModels(), split, nvlinkEvery), seed);
    }

    private List<GpuModel> gpuModels() {
        List<GpuModel> gpuModels = new ArrayList<>();
        for (String m : models) {
            gpuModels.add(GpuModel.byName(m));
        }
        return gpuModels;
    }
}
