package io.vgpu.simulate;

import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.filter.FilterConfig;
import io.vgpu.gateway.core.filter.FilterDecider;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.core.webhook.WebhookConfig;
import io.vgpu.gateway.core.webhook.WebhookDecider;
import io.vgpu.simulate.report.HtmlReport;
import io.vgpu.simulate.report.ReportRun;


import io.vgpu.simulate.report.SimulationReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code simulate --report FILE [--compare-policies]}: runs the simulation once per node policy (the configured one,
 * or binpack and spread side by side), each on a fresh cluster with the same pods, prints each run's summary table,
 * and writes the HTML report ({@link HtmlReport}).
 */
public final class ReportRunner {

    private ReportRunner() {
    }

    /**
     * What {@code simulate} was asked to run.
     *
     * @param mode                    {@code http} or {@code core}
     * @param cluster                 the synthetic cluster
     * @param workload                the pods, before admission
     * @param nvidia                  resource names and defaults
     * @param nodePolicies            one run per node policy, in order
     * @param compareModes            per policy, an extender-mode run and a DRA-mode run
     * @param gpuPolicy               the GPU policy of every run
     * @param concurrency             http mode: pods in flight
     * @param devicePluginDelayMillis http mode: the simulated device plugin's allocation time
     * @param context                 lines describing the run, shown under the report's title
     */
    public record Options(String mode, List<SyntheticNode> cluster, List<PodSpec> workload, NvidiaConfig nvidia,
                          List<String> nodePolicies, boolean compareModes, String gpuPolicy, int concurrency, long devicePluginDelayMillis,
                          List<String> context) {

        /** Copies the lists. */
        public Options {
            cluster = List.copyOf(cluster);
            workload = List.copyOf(workload);
            nodePolicies = List.copyOf(nodePolicies);
            context = List.copyOf(context);
        }
    }

    /**
     * Runs every policy, prints the summaries to {@code out}, writes {@code file}.
     *
     * @return the runs, in policy order
     * @throws UncheckedIOException when the report cannot be written
     */
    public static List<ReportRun> run(PrintWriter out, Options options, Path file) {
        List<ReportRun> runs = new ArrayList<>();
        for (String policy : options.nodePolicies()) {
            List<String> modes = options.compareModes()
                    ? List.of("core".equals(options.mode()) ? "core" : "http", "dra") : List.of(options.mode());
            for (String mode : modes) {
                String label = (options.compareModes() ? ("dra".equals(mode) ? "DRA, " : "extender, ") : "")
                        + policy + " nodes" + ("dra".equals(mode) ? "" : ", " + options.gpuPolicy() + " GPUs");
                out.println("simulate: " + label);
                out.flush();
                ReportRun run = switch (mode) {
                    case "core" -> core(out, options, policy, label);
                    case "dra" -> dra(out, options, policy, label, options.compareModes() && !"core".equals(options.mode()));
                    default -> http(out, options, policy, label);
                };
                out.print(run.summary().table());
                out.flush();
                runs.add(run);
            }
        }
        List<String> context = new ArrayList<>(options.context());
        if (options.compareModes() || "dra".equals(options.mode())) {
            context.addAll(MODEL);
        }
        try {
            HtmlReport.write(file, "vgpu-gateway simulate", context, runs);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the report " + file + ": " + e.getMessage(), e);
        }
        out.printf(Locale.ROOT, "simulate: report written to %s%n", file.toAbsolutePath());
        out.flush();
        return runs;
    }

    /** The comparison's model, stated in the report. */
    static final List<String> MODEL = List.of(
            "Model: neither mode includes kube-scheduler's own cycle (queueing, the other plugins, its API calls).",
            "Extender mode: the real gateway's webhook, filter and bind (over HTTP in http mode); bind holds the node "
                    + "lock until the simulated device plugin has allocated the pod (--device-plugin-delay).",
            "DRA mode: the pod translated into a claim template (by the real gateway's /webhook over HTTP in http "
                    + "mode, the template read back from the API server; by the webhook's own translator in-process in "
                    + "core and dra mode), the claim made by a stand-in for the claim controller, "
                    + "allocated on each node by a stand-in for kube-scheduler's structured allocator (in-flight claims "
                    + "counted), the best node by the node policy (binpack: most GPU memory granted; spread: least), "
                    + "bound; the kubelet then spends --device-plugin-delay per claim in prepare, without a lock. "
                    + "Objects are written to a simulated API server over HTTP, blocking, within the cycle; the allocator "
                    + "runs in-process. The GPU policy does not apply (first fit inside a node).");

    /** The webhook decision both modes admit pods with. */
    static WebhookDecider webhook(NvidiaConfig nvidia) {
        return new WebhookDecider(WebhookConfig.single("hami-scheduler", true, nvidia));
    }

    /** {@code throughGateway}: the pods admitted by a running gateway's /webhook over HTTP (compare-modes, http). */
    private static ReportRun dra(PrintWriter out, Options o, String policy, String label, boolean throughGateway) {
        DraSimulation simulation = new DraSimulation(webhook(o.nvidia()), o.nvidia(), policy,
                Duration.ofMillis(o.devicePluginDelayMillis()));
        ProgressBar bar = new ProgressBar(out, o.workload().size());
        if (throughGateway) {
            SimulationLogs.quiet();
        }
        ReportRun run = throughGateway ? simulation.runThroughGateway(label, o.cluster(), o.workload(), bar::update)
                : simulation.run(label, o.cluster(), o.workload(), bar::update);
        bar.finish();
        return run;
    }

    private static ReportRun core(PrintWriter out, Options o, String policy, String label) {
        Simulation simulation = new Simulation(
                new WebhookDecider(WebhookConfig.single("hami-scheduler", true, o.nvidia())),
                new FilterDecider(new FilterConfig(o.nvidia(), policy, o.gpuPolicy())));
        ProgressBar bar = new ProgressBar(out, o.workload().size());
        ReportRun run = simulation.run(label, o.cluster(), o.workload(), bar::update);
        bar.finish();
        return run;
    }

    private static ReportRun http(PrintWriter out, Options o, String policy, String label) {
        SimulationLogs.quiet();
        SimulatedCluster.Settings settings = new SimulatedCluster.Settings(policy, o.gpuPolicy(), "127.0.0.1", 0, 0, 0,
                Duration.ofMillis(o.devicePluginDelayMillis()));
        try (SimulatedCluster running = SimulatedCluster.start(settings, o.cluster())) {
            ReportRecorder recorder = new ReportRecorder(label, o.workload(), running.state()::nodes);
            ProgressBar bar = new ProgressBar(out, o.workload().size());
            try (AutoCloseable watch = recorder.watchPlacements(running.client())) {
                SimulationReport report = new GatewaySimulation(running, o.concurrency(), o.nvidia())
                        .run(o.workload(), recorder.progress(bar::update, false));
                bar.finish();
                return recorder.finish(report);
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("the placement watch did not stop: " + e.getMessage(), e);
            }
        }
    }
}
