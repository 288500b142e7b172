package io.vgpu.loadtest.chaos;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the chaos harness from the command line (scripts/chaos.sh): the CI-sized run by default, a soak with
 * {@code --pods 100000}, or, with {@code --serve}, just N replicas against the mock API server for local
 * experiments (no load, no kills) until Ctrl-C. Exit status 0 when the run is clean, 1 otherwise.
 */
@Command(name = "chaos", mixinStandardHelpOptions = true, description = {
    "Leader-free replicas under contention and kill -9: N gateway JVMs, one Hazelcast cluster, a mock API server,",
    "several simulated kube-schedulers, invariant checks. See docs/reliability.md."})
public final class ChaosMain implements Callable<Integer> {

    @Option(names = "--jar", description = "the gateway jar (default: ${DEFAULT-VALUE})")
    Path jar = Path.of("gateway", "target", "vgpu-gateway-all.jar");

    @Option(names = "--work-dir", description = "replica logs, kubeconfig, report (default: ${DEFAULT-VALUE})")
    Path workDir = Path.of("loadtest", "target", "chaos");

    @Option(names = "--replicas", description = "gateway replicas (default: ${DEFAULT-VALUE})")
    int replicas = 3;

    @Option(names = "--pods", description = "pods over the run (default: ${DEFAULT-VALUE})")
    int pods = 1_200;

    @Option(names = "--live-pods", description = "pods alive at once (default: ${DEFAULT-VALUE})")
    int livePods = 48;

    @Option(names = "--nodes", description = "GPU nodes (default: ${DEFAULT-VALUE})")
    int nodes = 4;

    @Option(names = "--idle-nodes", description = "GPU nodes only abandoned filters reach (default: ${DEFAULT-VALUE})")
    int idleNodes = 2;

    @Option(names = "--abandon-every", description = "seconds between pods filtered onto the idle nodes and "
            + "abandoned; 0 for none (default: ${DEFAULT-VALUE})")
    int abandonEverySeconds = 4;

    @Option(names = "--duplicate-bind-every", description = "every this many placements, bind the pod again to "
            + "another node; 0 for never (default: ${DEFAULT-VALUE})")
    int duplicateBindEvery = 25;

    @Option(names = "--fail-binding-every", description = "the API server fails every this many first Bindings with "
            + "a 409 (the next one onto a node the stale replica owns); 0 for never (default: ${DEFAULT-VALUE})")
    int failBindingEvery = 40;

    @Option(names = "--stop-on-violation", description = "end the run at the first violation")
    boolean stopOnViolation;

    @Option(names = "--gpus-per-node", description = "cards per node (default: ${DEFAULT-VALUE})")
    int gpusPerNode = 2;

    @Option(names = "--schedulers", description = "concurrent scheduler workers (default: ${DEFAULT-VALUE})")
    int schedulers = 8;

    @Option(names = "--kills", description = "kill -9 at most this many times (default: ${DEFAULT-VALUE})")
    int kills = 3;

    @Option(names = "--kill-every", description = "seconds between kills (default: ${DEFAULT-VALUE})")
    int killEverySeconds = 10;

    @Option(names = "--full-restart-every", description = "every this many kills, kill every replica at once and "
            + "start them all again; 0 for never (default: ${DEFAULT-VALUE})")
    int fullRestartEvery = 3;

    @Option(names = "--stale-delay", description = "seconds the stale replica lags; 0 for none (default: "
            + "${DEFAULT-VALUE})")
    int staleSeconds = 10;

    @Option(names = "--ttl", description = "reservation TTL in seconds (default: ${DEFAULT-VALUE})")
    int ttlSeconds = 5;

    @Option(names = "--run-for", description = "give up after this many minutes (default: ${DEFAULT-VALUE})")
    int runForMinutes = 10;

    @Option(names = "--seed", description = "random seed (default: ${DEFAULT-VALUE})")
    long seed = 42;

    @Option(names = "--report", description = "also write the Markdown report here")
    Path report;

    @Option(names = "--serve", description = "only start the replicas and the mock API server, print the "
            + "endpoints and wait for Ctrl-C")
    boolean serve;

    @Override
    public Integer call() throws Exception {
        ChaosSettings ci = ChaosSettings.ci(jar, workDir);
        int stale = serve || staleSeconds == 0 || replicas < 2 ? -1 : replicas - 1;
        ChaosSettings settings = new ChaosSettings(jar, workDir, replicas, stale, Duration.ofSeconds(staleSeconds),
                nodes, idleNodes, gpusPerNode, ci.gpuMemMiB(), ci.gpuSlots(), serve ? 0 : pods, livePods, schedulers,
                serve ? 0 : kills, fullRestartEvery, Duration.ofSeconds(killEverySeconds), Duration.ofSeconds(ttlSeconds),
                ci.nodeLockTimeout(), Duration.ofMinutes(runForMinutes), ci.checkEvery(),
                Duration.ofSeconds(serve ? 0 : abandonEverySeconds), duplicateBindEvery, serve ? 0 : failBindingEvery,
                stopOnViolation,
                ci.jvmOptions(), seed, serve);
        if (serve) {
            return serve(settings);
        }
        ChaosReport result = ChaosRun.run(settings);
        String markdown = result.toMarkdown();
        System.out.println(markdown);
        if (report != null) {
            Files.writeString(report, markdown);
        }
        return result.clean() ? 0 : 1;
    }

    private static int serve(ChaosSettings settings) throws InterruptedException {
        ChaosCluster cluster = ChaosCluster.start(settings);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            cluster.close();
            stopped.countDown();
        }, "chaos-stop"));
        System.out.println("mock API server: " + cluster.api().url() + " (kubeconfig: "
                + settings.workDir().resolve("kubeconfig.yaml").toAbsolutePath() + ")");
        System.out.println("nodes: " + cluster.nodeNames());
        for (GatewayReplica r : cluster.replicas()) {
            System.out.println(r.name() + ": api http://127.0.0.1:" + r.apiPort() + " (/webhook /filter /bind "
                    + "/readyz), metrics http://127.0.0.1:" + r.metricsPort() + " (/metrics /debug/state), hazelcast "
                    + r.hazelcastPort() + ", log " + r.log().toAbsolutePath());
        }
        System.out.println("Ctrl-C stops everything.");
        stopped.await();
        return 0;
    }

    /** Entry point. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new ChaosMain()).execute(args));
    }
}
