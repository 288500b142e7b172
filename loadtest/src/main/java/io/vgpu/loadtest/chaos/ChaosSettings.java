package io.vgpu.loadtest.chaos;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One chaos run: how many gateway replicas, what cluster they schedule, how much work, and how much chaos.
 *
 * @param gatewayJar        the runnable gateway jar ({@code gateway/target/vgpu-gateway-all.jar})
 * @param workDir           where replica logs, the kubeconfig and the report go
 * @param replicas          gateway JVMs (separate processes on loopback, one Hazelcast cluster)
 * @param staleReplica      index of the replica whose view lags by {@code informerDelay}; -1 for none
 * @param informerDelay     how late the stale replica sees every change: its informer events and the shared state's
 *                          change events ({@link StaleGateway})
 * @param nodes             GPU nodes (few: contention is the point)
 * @param idleNodes         GPU nodes that only abandoned filters reach ({@code abandonEvery}): no bind, no other
 *                          reservation touches them, so only the owner's sweeper removes what expires there
 * @param gpusPerNode       cards per node
 * @param gpuMemMiB         memory per card
 * @param gpuSlots          split count per card
 * @param pods              pods to create over the run (each is filtered, bound, run, then deleted)
 * @param livePods          at most this many pods exist at once (churn keeps the API server small)
 * @param schedulers        concurrent kube-scheduler workers (filter then bind, each call to a random replica)
 * @param kills             at most this many kill -9 during the run (each victim restarted once the cluster is safe
 *                          again); none after the last pod is done
 * @param fullRestartEvery  every this many kills, kill -9 every replica at once instead of one, then start them all
 *                          again: the state is rebuilt from the API server (0: never)
 * @param killEvery         pause between a restart being complete and the next kill
 * @param reservationTtl    {@code VGPU_RESERVATION_TTL}
 * @param nodeLockTimeout   {@code VGPU_NODE_LOCK_TIMEOUT}: how long a lock left by a killed bind blocks its node
 * @param runFor            give up (and report) after this long
 * @param checkEvery        period of the invariant checks during the run
 * @param jvmOptions        options of every gateway JVM (bounded heap, the ForkJoin setting of DEPENDENCIES.md)
 * @param abandonEvery      every this long, one more pod is filtered onto the idle nodes and abandoned there
 *                          (kube-scheduler filtered it, then never bound it) until its reservation is long past the
 *                          sweep; zero for none
 * @param duplicateBindEvery every this many placements, the pod just bound is bound again to another node (a scheduler
 *                          whose cache has not seen the binding yet); the gateway must refuse it without a Binding; 0
 *                          for none
 * @param failBindingEvery  the API server answers every this many first Bindings with a 409 (after the gateway wrote
 *                          {@code bind-phase}: the pod is charged where it failed, then filtered elsewhere); 0 for
 *                          never
 * @param stopOnViolation   end the run at the first violation (broken builds: how long until it is caught)
 * @param seed              random seed (pod sizes, replica choice, kill victims)
 * @param keepRunning       no pods and no kills: start the replicas, print their endpoints, wait for Ctrl-C
 */
public record ChaosSettings(Path gatewayJar, Path workDir, int replicas, int staleReplica, Duration informerDelay,
                            int nodes, int idleNodes, int gpusPerNode, int gpuMemMiB, int gpuSlots, int pods,
                            int livePods, int schedulers, int kills, int fullRestartEvery, Duration killEvery,
                            Duration reservationTtl, Duration nodeLockTimeout, Duration runFor, Duration checkEvery,
                            Duration abandonEvery, int duplicateBindEvery, int failBindingEvery,
                            boolean stopOnViolation,
                            List<String> jvmOptions, long seed, boolean keepRunning) {

    /**
     * Every gateway JVM: 256 MiB heap, a real common pool on 2 cores (DEPENDENCIES.md pitfall 6), serial GC, the
     * quick C1 compiler only (three JVMs start at once on two cores; C2 would spend the start compiling), and a 1 s
     * wait before the Hazelcast join instead of 5 s (every replica starts at once here).
     */
    public static final List<String> GATEWAY_JVM = List.of("-Xmx256m", "-XX:+UseSerialGC",
            "-Djava.util.concurrent.ForkJoinPool.common.parallelism=4", "-Xshare:auto", "-XX:TieredStopAtLevel=1",
            "-Dhazelcast.wait.seconds.before.join=1");

    /** How often every replica sweeps the expired reservations of the keys it owns (the gateway's sweeper). */
    public static final Duration SWEEP_PERIOD = Duration.ofSeconds(2);

    /**
     * Slack on every time bound of the checker, for a loaded 2-core machine: a timer, an entry processor, a listener
     * event or a watch event may each run seconds late while three JVMs, the driver and builds share the cores (an
     * owner swept 8.5 s after a deadline at a load average of 30; with 5 s of slack that was a violation).
     */
    public static final Duration SLACK = Duration.ofSeconds(10);

    /** Checks ranges. */
    public ChaosSettings {
        Objects.requireNonNull(gatewayJar, "gatewayJar");
        Objects.requireNonNull(workDir, "workDir");
        jvmOptions = List.copyOf(jvmOptions);
        Objects.requireNonNull(abandonEvery, "abandonEvery");
        if (replicas < 1 || nodes < 1 || idleNodes < 0 || gpusPerNode < 1 || pods < 0 || livePods < 1
                || schedulers < 1 || kills < 0 || fullRestartEvery < 0 || duplicateBindEvery < 0
                || failBindingEvery < 0) {
            throw new IllegalArgumentException("replicas, nodes, GPUs, live pods and schedulers must be positive");
        }
        if (staleReplica >= replicas) {
            throw new IllegalArgumentException("stale replica " + staleReplica + " of " + replicas);
        }
        if (kills > 0 && replicas < 3) {
            throw new IllegalArgumentException("kills need at least 3 replicas (the quorum is a majority)");
        }
    }

    /**
     * The CI-sized run: 3 replicas (one stale by 10 s), 4 nodes of 2 cards, 1,200 pods with at most 48 alive,
     * 3 kills (the third of every replica at once), a 5 s reservation deadline, a 30 s node-lock timeout (a lock that
     * is never released lasts that long under contention: well past the checker's bounds); 2 idle nodes where a pod
     * is filtered and abandoned every 4 s; every 25th placed pod bound again to another node; every 40th first
     * Binding fails. It gives up after 6 minutes: about 2.5 minutes here, and the CI machine was seen 2 to 2.5 times
     * slower (2026-12-07).
     */
    public static ChaosSettings ci(Path gatewayJar, Path workDir) {
        return new ChaosSettings(gatewayJar, workDir, 3, 2, Duration.ofSeconds(10), 4, 2, 2, 24_000, 10, 1_200, 48,
                8, 3, 3, Duration.ofSeconds(10), Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofMinutes(6),
                Duration.ofSeconds(3), Duration.ofSeconds(4), 25, 40, false, GATEWAY_JVM, 42, false);
    }

    /**
     * How long after its deadline an expired reservation may still be in its owner's view: the owner sweeps every
     * {@link #SWEEP_PERIOD}, plus {@link #SLACK}; in a stale view twice its delay more (that owner sweeps what its
     * lagging view shows expired, and its view shows the removal one delay later again).
     */
    public Duration sweepBound(boolean staleView) {
        return SWEEP_PERIOD.plus(SLACK).plus(staleView ? informerDelay.multipliedBy(2) : Duration.ZERO);
    }

    /**
     * How long an abandoned pod stays before it is deleted (its delete would release the reservation and so hide a
     * sweeper that never sweeps): past its reservation's deadline, the stale sweep bound and two checks.
     */
    public Duration abandonFor() {
        return reservationTtl.plus(sweepBound(true)).plus(checkEvery.multipliedBy(2));
    }

    /** The quorum the replicas run with: a majority (⌊N/2⌋+1), off for a single replica. */
    public int quorum() {
        return replicas == 1 ? 0 : replicas / 2 + 1;
    }
}
