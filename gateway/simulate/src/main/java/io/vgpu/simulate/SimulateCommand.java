package io.vgpu.simulate;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.vgpu.gateway.GatewayConfig;
import io.vgpu.gateway.config.ConfigurationException;
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

import io.vgpu.simulate.report.SimulationReport;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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
                + "only the scheduling core; --mode dra schedules the same pods the DRA way (claims, structured "
                + "allocator); --serve keeps the simulated cluster and the endpoints up until Ctrl-C.",
            "The gateway takes these VGPU_* settings from the environment, as serve does (the others are the "
                + "simulator's own): " + SimulateCommand.LOCAL_KEYS_TEXT + "."})
public final class SimulateCommand implements Callable<Integer> {

    /** The passed-on settings, for the help text. */
    static final String LOCAL_KEYS_TEXT = "VGPU_MAX_IN_FLIGHT, VGPU_SCHEDULER_NAMES, "
            + "VGPU_FORCE_OVERWRITE_DEFAULT_SCHEDULER, VGPU_NODE_LOCK_TIMEOUT, VGPU_NODE_LOCK_WAIT, "
            + "VGPU_NODE_LABEL_SELECTOR, VGPU_KUBE_QPS, VGPU_KUBE_BURST, VGPU_DEVICE_CONFIG_FILE, "
            + "VGPU_WEBHOOK_MAX_BODY_BYTES, VGPU_WEBHOOK_FAILURE_POLICY, VGPU_SHUTDOWN_TIMEOUT, VGPU_DEBUG_STATE, "
            + "VGPU_RESERVATION_TTL";

    @Spec
    private CommandSpec spec;

    @Option(names = "--mode", defaultValue = "http",
            description = "http: the real gateway over HTTP; core: the scheduling core only; dra: every node in DRA "
                    + "mode, pods translated into claims and allocated by a stand-in for kube-scheduler's structured "
                    + "allocator (default: ${DEFAULT-VALUE})")
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

    @Option(names = "--pods", defaultValue = "240", paramLabel = "N|DIR",
            description = {"pods to submit (default: ${DEFAULT-VALUE}); with --serve, a directory of Pod (and Node)"
                + " manifests instead, *.yaml/*.yml/*.json, stored in the API server before the gateway starts, Pods"
                + " with their own UIDs: replay a recorded kube-scheduler session against it"})
    String podsOption;

    @Option(names = "--max-in-flight", paramLabel = "N",
            description = "requests per endpoint the gateway handles at once; past it /filter and /bind answer "
                    + "'overloaded' (VGPU_MAX_IN_FLIGHT; default: the gateway's, 512)")
    Integer maxInFlight;

    /** Where {@code VGPU_*} settings are passed on from ({@link SimulatedCluster#LOCAL_KEYS}). */
    Map<String, String> environment = System.getenv(); /* test */

    private List<HasMetadata> preloaded;

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
                    + "pod before it reports success and releases the node lock; dra mode: what the kubelet plugin "
                    + "spends preparing each claim, without a lock (default: ${DEFAULT-VALUE})")
    long devicePluginDelayMillis;

    @Option(names = "--serve", description = "keep the simulated cluster and the gateway up until interrupted, a "
            + "test target for kube-scheduler, load tools and replays (--pods DIR preloads manifests; ignores a --pods "
            + "count, --mix, --concurrency and --mode)")
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

    @Option(names = "--compare-modes",
            description = "with --report: run extender mode (--mode http or core; dra counts as http) and DRA mode on "
                    + "the same cluster and pods, side by side")
    boolean compareModes;

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
        int pods = podCount();
        List<PodSpec> workload = Workloads.generate(cluster, nvidia, mix, pods, seed);
        out.printf(Locale.ROOT, "simulate: %d nodes x %d GPUs (%s), %d pods, node policy %s, GPU policy %s, seed %d%n",
                nodes, gpusPerNode, String.join(", ", gpuModels().stream().map(GpuModel::type).toList()), pods,
                nodePolicy, gpuPolicy, seed);
        if (report != null) {
            ReportRunner.run(out, new ReportRunner.Options(mode, cluster, workload, nvidia,
                    comparePolicies ? List.of("binpack", "spread") : List.of(nodePolicy), compareModes, gpuPolicy,
                    concurrency,
                    devicePluginDelayMillis, List.of(String.format(Locale.ROOT,
                            "%d nodes x %d GPUs, %d pods (%s), mode %s, seed %d", nodes, gpusPerNode, pods, mix,
                            mode, seed))), report);
            return 0;
        }
        if ("core".equals(mode)) {
            printTable(out, runCore(out, cluster, workload, nvidia));
        } else if ("dra".equals(mode)) {
            ProgressBar bar = new ProgressBar(out, pods);
            SimulationReport report = new DraSimulation(ReportRunner.webhook(nvidia), nvidia, nodePolicy,
                    Duration.ofMillis(devicePluginDelayMillis)).run(cluster, workload, bar::update);
            bar.finish();
            printTable(out, report);
        } else {
            runHttp(out, cluster, workload, nvidia);
        }
        return 0;
    }

    private SimulationReport runCore(PrintWriter out, List<SyntheticNode> cluster, List<PodSpec> workload,
                                     NvidiaConfig nvidia) {
        int pods = workload.size();
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
        int pods = workload.size();
        SimulationLogs.quiet();
        long t0 = System.nanoTime();
        SimulatedCluster.Settings settings = settings(0, 0);
        try (SimulatedCluster running = SimulatedCluster.start(settings, cluster)) {
            out.printf(Locale.ROOT, "simulate: gateway ready at %s (API server %s) in %.1f s%n", running.gatewayUrl(),
                    running.apiServer().url(), (System.nanoTime() - t0) / 1e9);
            printSettings(out, settings);
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
        SimulatedCluster.Settings settings = settings(port, metricsPort);
        SimulatedCluster running = SimulatedCluster.start(settings, cluster);
        try {
            ServeBanner.print(out, running, String.format(Locale.ROOT,
                    "simulate --serve: %d nodes x %d GPUs, node policy %s, GPU policy %s, seed %d", nodes, gpusPerNode,
                    nodePolicy, gpuPolicy, seed), devicePluginDelayMillis);
            printSettings(out, settings);
            return running;
        } catch (RuntimeException e) {
            running.close();
            throw e;
        }
    }

    /** What the gateway was given beyond the simulator's own settings, and what was preloaded. */
    private void printSettings(PrintWriter out, SimulatedCluster.Settings settings) {
        if (!settings.gatewayEnv().isEmpty()) {
            StringBuilder line = new StringBuilder("  gateway settings   ");
            settings.gatewayEnv().forEach((k, v) -> line.append(' ').append(k).append('=').append(v));
            out.println(line);
        }
        List<String> ignored = ignoredEnv();
        if (!ignored.isEmpty()) {
            out.println("  not passed on       " + String.join(" ", ignored) + " (simulate sets these itself)");
        }
        if (!settings.preload().isEmpty()) {
            long pods = settings.preload().stream().filter(o -> o instanceof Pod).count();
            out.println("  preloaded           " + pods + " pods, " + (settings.preload().size() - pods)
                    + " nodes from " + podDirectory() + " (pods keep their UIDs)");
        }
        out.flush();
    }

    private SimulatedCluster.Settings settings(int apiPort, int metrics) {
        if (preloaded == null) {
            preloaded = serve && podDirectory() != null ? PreloadedObjects.read(podDirectory()) : List.of();
        }
        return new SimulatedCluster.Settings(nodePolicy, gpuPolicy, "127.0.0.1", apiPort, metrics, 0,
                Duration.ofMillis(devicePluginDelayMillis), gatewayEnv(), preloaded);
    }

    /** The {@code VGPU_*} settings passed on to the gateway: the local ones of the environment, then the options. */
    Map<String, String> gatewayEnv() {
        Map<String, String> env = new TreeMap<>();
        environment.forEach((key, value) -> {
            if (SimulatedCluster.LOCAL_KEYS.contains(key) && value != null && !value.isBlank()) {
                env.put(key, value);
            }
        });
        if (maxInFlight != null) {
            env.put(GatewayConfig.MAX_IN_FLIGHT.name(), Integer.toString(maxInFlight));
        }
        return env;
    }

    /** {@code VGPU_*} variables of the environment that simulate does not pass on (it sets those itself). */
    private List<String> ignoredEnv() {
        return environment.keySet().stream().filter(k -> k.startsWith(GatewayConfig.PREFIX))
                .filter(k -> !SimulatedCluster.LOCAL_KEYS.contains(k)).sorted().toList();
    }

    /** {@code --pods} as a count; 0 when it names a directory. */
    private int podCount() {
        return podDirectory() == null ? Integer.parseInt(podsOption.trim()) : 0;
    }

    /** {@code --pods} as a directory, or null when it is a count. */
    private Path podDirectory() {
        return podsOption.trim().matches("-?\\d+") ? null : Path.of(podsOption.trim());
    }

    private void validate() {
        if (!Set.of("http", "core", "dra").contains(mode)) {
            throw new IllegalArgumentException("--mode must be http, core or dra, not '" + mode + "'");
        }
        Path podDirectory = podDirectory();
        if (podDirectory == null && podCount() < 0) {
            throw new IllegalArgumentException("--pods must not be negative");
        }
        if (podDirectory != null && !Files.isDirectory(podDirectory)) {
            throw new IllegalArgumentException("--pods must be a pod count or a directory of manifests: "
                    + podDirectory + " is neither");
        }
        if (podDirectory != null && !serve) {
            throw new IllegalArgumentException("--pods " + podDirectory + ": a directory of manifests is preloaded"
                    + " for --serve; without it, --pods is the number of pods to generate");
        }
        if (maxInFlight != null && maxInFlight < 1) {
            throw new IllegalArgumentException("--max-in-flight must be at least 1, not " + maxInFlight);
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
        if (compareModes && report == null) {
            throw new IllegalArgumentException("--compare-modes needs --report FILE");
        }
        if (report != null && serve) {
            throw new IllegalArgumentException("--report runs a workload; it cannot be combined with --serve");
        }
        if (port < 0 || port > 65_535 || metricsPort < 0 || metricsPort > 65_535) {
            throw new IllegalArgumentException("--port and --metrics-port must be 0..65535");
        }
        try { // the gateway's settings as its own reader sees them: bad ones fail here, in one line
            SimulatedCluster.Settings settings = settings(port, metricsPort);
            SimulatedCluster.gatewayConfig(settings);
            SimulatedCluster.reservationTtl(settings);
        } catch (ConfigurationException e) {
            throw new IllegalArgumentException(e.getMessage().replaceAll("\\s*\n\\s*", " "), e);
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
