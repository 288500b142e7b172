package io.vgpu.loadtest.chaos;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One chaos run end to end: start the cluster, run the {@link Workload} while a monkey kills -9 a random replica
 * every {@link ChaosSettings#killEvery()} (waiting for the survivors' cluster to be safe, then restarting the victim
 * and waiting for the full cluster to be safe again), at most {@link ChaosSettings#kills()} times and never after
 * the load is done, and the {@link InvariantChecker} runs every {@link ChaosSettings#checkEvery()}; then the final
 * check and the {@link ChaosReport}.
 */
public final class ChaosRun {

    private static final Logger LOG = LoggerFactory.getLogger(ChaosRun.class);
    private static final String CONFLICTS = "vgpu_filter_reserve_conflicts_total";

    private final ChaosSettings settings;
    /** Last conflict counter seen per replica incarnation ("name#incarnation"). */
    private final Map<String, Double> conflicts = new ConcurrentHashMap<>();
    private volatile String monkeyFailure;
    /** What the monkey is doing and since when (System.nanoTime()), for the "unfinished" message. */
    private volatile String monkeyDoing = "not started";
    private volatile long monkeySince = System.nanoTime();
    /** Counted down when the load is done: the monkey makes no further kill. */
    private final CountDownLatch loadDone = new CountDownLatch(1);

    private ChaosRun(ChaosSettings settings) {
        this.settings = settings;
    }

    /** Runs {@code settings} and reports; never throws for a violation (read {@link ChaosReport#violations()}). */
    public static ChaosReport run(ChaosSettings settings) {
        return new ChaosRun(settings).execute();
    }

    private ChaosReport execute() {
        long startup = System.nanoTime();
        try (ChaosCluster cluster = ChaosCluster.start(settings)) {
            Duration started = Duration.ofNanos(System.nanoTime() - startup);
            LOG.info("chaos: {} replicas formed and safe in {} ms", settings.replicas(), started.toMillis());
            ChaosStats stats = new ChaosStats();
            Violations found = new Violations(System.currentTimeMillis());
            Workload load = new Workload(cluster, stats, found);
            InvariantChecker checker = new InvariantChecker(cluster, load.pods(), found);
            long began = System.nanoTime();
            load.start();
            Thread monkey = daemon("chaos-monkey", () -> monkey(cluster, load, stats));
            Thread checks = daemon("chaos-checker", () -> checkPeriodically(checker));
            long deadline = began + settings.runFor().toNanos();
            long lastLog = 0;
            while (!load.done() && System.nanoTime() < deadline && !(settings.stopOnViolation() && found.any())) {
                ChaosCluster.sleep(200);
                if (System.nanoTime() - lastLog > 10_000_000_000L) {
                    lastLog = System.nanoTime();
                    LOG.info("chaos: {} pods created, {} done, {} decisions, {} kills, {} violations",
                            load.created(), load.finished(), stats.decisions.sum(), stats.kills().size(),
                            found.all().size());
                }
            }
            Duration ran = Duration.ofNanos(System.nanoTime() - began);
            boolean finished = load.done();
            // read before the monkey is joined: what was under way when the time ran out
            String underWay = monkeyDoing + " for the last " + (System.nanoTime() - monkeySince) / 1_000_000 + " ms";
            boolean stoppedEarly = !finished && settings.stopOnViolation() && found.any();
            loadDone.countDown();
            if (stoppedEarly) {
                monkey.interrupt();
            }
            join(monkey); // a kill under way ends with its victim back and the cluster safe
            load.stop();
            checks.interrupt();
            join(checks);
            checker.finalCheck(finished, !stoppedEarly);
            List<String> violations = new ArrayList<>(found.all());
            if (monkeyFailure != null && !stoppedEarly) {
                violations.add("recovery: " + monkeyFailure);
            }
            if (!finished && !stoppedEarly) {
                violations.add(unfinished(cluster, load, stats, underWay));
            }
            cluster.replicas().forEach(r -> scrapeConflicts(cluster, r));
            cluster.killAll();
            LOG.info("chaos: {} replica starts failed and were retried", cluster.failedStarts());
            long stale = settings.staleReplica() < 0 ? 0 : Math.round(conflicts.entrySet().stream()
                    .filter(e -> e.getKey().startsWith(cluster.replicas().get(settings.staleReplica()).name() + "#"))
                    .mapToDouble(Map.Entry::getValue).sum());
            return new ChaosReport(settings, started, ran, stats.podsCreated.sum(), stats.podsDeleted.sum(),
                    stats.reservations.sum(), stats.decisions.sum(), stats.filterCalls.sum(), stats.noFit.sum(),
                    stats.noFitAfterConflict.sum(), Math.round(conflicts.values().stream().mapToDouble(d -> d).sum()),
                    stale, stats.filterErrors.sum(), stats.bindErrors.sum(), stats.boundDespiteError.sum(),
                    stats.failoverRetries.sum(), stats.allocateWithoutLock.sum(), cluster.api().requests(),
                    stats.eventsExpired.sum(),
                    stats.decisionLatency.percentile(50), stats.decisionLatency.percentile(99),
                    stats.decisionLatency.max(), stats.longestDecisionGapNanos.get() / 1_000_000, stats.kills(),
                    checker.phantoms(), checker.latePhantoms(), checker.longestLockHeld(), stats.abandoned.sum(),
                    stats.abandonedReserved.sum(),
                    stats.duplicateBinds.sum(), cluster.api().failedBindings(), secondBindings(cluster, false),
                    secondBindings(cluster, true),
                    checker.checks(), checker.viewsCompared(), found.firstAtMillis(), violations);
        }
    }

    /**
     * Why the run did not finish, in the violation itself: CI keeps only the test's output, so the message says how
     * far the load got, which kills completed and how long each took, what the monkey was doing when the time ran
     * out, and each replica's state now (2026-12-07: a CI run placed 736 of 1,500 pods and said nothing more).
     */
    private String unfinished(ChaosCluster cluster, Workload load, ChaosStats stats, String underWay) {
        StringBuilder out = new StringBuilder("unfinished: ").append(load.finished()).append(" of ")
                .append(settings.pods()).append(" pods placed, run and deleted within ").append(settings.runFor())
                .append(" (").append(load.created()).append(" created, ").append(stats.decisions.sum())
                .append(" decisions, longest time without a placement ")
                .append(stats.longestDecisionGapNanos.get() / 1_000_000).append(" ms); kills done: ");
        stats.kills().forEach(k -> out.append(k.victim()).append(" (survivors safe after ").append(k.safeAfterMillis())
                .append(" ms, back after ").append(k.backAfterMillis()).append(" ms) "));
        out.append("; the monkey: ").append(underWay).append("; replicas now: ");
        cluster.replicas().forEach(r -> out.append(cluster.describe(r)).append(" ; "));
        return out.toString();
    }

    private void doing(String what) {
        monkeyDoing = what;
        monkeySince = System.nanoTime();
    }

    private static long secondBindings(ChaosCluster cluster, boolean elsewhere) {
        return cluster.api().secondBindings().stream().filter(b -> b.elsewhere() == elsewhere).count();
    }

    /** Kills, waits for safety, restarts, waits for safety; {@link ChaosSettings#kills()} times. */
    private void monkey(ChaosCluster cluster, Workload load, ChaosStats stats) {
        SplittableRandom random = new SplittableRandom(settings.seed() ^ 0x5DEECE66DL);
        try {
            for (int k = 0; k < settings.kills(); k++) {
                doing("waiting before kill " + (k + 1));
                if (loadDone.await(settings.killEvery().toMillis(), TimeUnit.MILLISECONDS)) {
                    return;
                }
                if (settings.fullRestartEvery() > 0 && (k + 1) % settings.fullRestartEvery() == 0) {
                    restartAll(cluster, load, stats);
                    continue;
                }
                int index = random.nextInt(settings.replicas());
                GatewayReplica victim = cluster.replicas().get(index);
                scrapeConflicts(cluster, victim);
                List<GatewayReplica> survivors = new ArrayList<>(cluster.replicas());
                survivors.remove(victim);
                Workload.KillWindow window = new Workload.KillWindow();
                load.watchKill(window);
                long killed = System.nanoTime();
                LOG.info("chaos: kill -9 {}", victim.name());
                doing("kill " + (k + 1) + ": " + victim.name() + " killed, waiting for the survivors to be safe");
                victim.kill();
                cluster.awaitFormed(survivors, Duration.ofSeconds(120));
                long safe = System.nanoTime();
                load.endKillWatch();
                doing("kill " + (k + 1) + ": survivors safe after " + (safe - killed) / 1_000_000 + " ms, "
                        + victim.name() + " restarted, waiting for all to be safe");
                victim.start();
                cluster.awaitFormed(cluster.replicas(), Duration.ofSeconds(180));
                load.markUp(index);
                long back = System.nanoTime();
                LOG.info("chaos: {} killed; survivors safe after {} ms, back and safe after {} ms", victim.name(),
                        (safe - killed) / 1_000_000, (back - killed) / 1_000_000);
                stats.killed(new ChaosStats.KillRecord(victim.name(), (safe - killed) / 1_000_000,
                        (back - killed) / 1_000_000, window.failed(), window.slowest(), window.longestGap()));
            }
            doing("done with its kills");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.error("chaos monkey failed", e);
            monkeyFailure = e.toString();
        }
    }

    /**
     * kill -9 of every replica at once: the shared state is gone; a fresh start rebuilds it from the API server (the
     * nodes' registrations, the bound pods' annotations) before it serves.
     */
    private void restartAll(ChaosCluster cluster, Workload load, ChaosStats stats) {
        cluster.replicas().forEach(r -> scrapeConflicts(cluster, r));
        Workload.KillWindow window = new Workload.KillWindow();
        load.watchKill(window);
        long killed = System.nanoTime();
        LOG.info("chaos: kill -9 every replica");
        doing("kill of every replica: restarted, waiting for them to form one safe cluster");
        cluster.replicas().forEach(GatewayReplica::kill);
        cluster.replicas().forEach(GatewayReplica::start);
        cluster.awaitFormed(cluster.replicas(), Duration.ofSeconds(180));
        long back = System.nanoTime();
        load.endKillWatch();
        for (int i = 0; i < settings.replicas(); i++) {
            load.markUp(i);
        }
        load.fullRestartDone();
        LOG.info("chaos: every replica killed; all back and safe after {} ms", (back - killed) / 1_000_000);
        stats.killed(new ChaosStats.KillRecord("all " + settings.replicas() + " at once", (back - killed) / 1_000_000,
                (back - killed) / 1_000_000, window.failed(), window.slowest(), window.longestGap()));
    }

    private void checkPeriodically(InvariantChecker checker) {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                Thread.sleep(settings.checkEvery().toMillis());
                checker.check();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.warn("invariant check could not run: {}", e.toString());
            }
        }
    }

    private void scrapeConflicts(ChaosCluster cluster, GatewayReplica replica) {
        if (replica.alive()) {
            cluster.counter(replica, CONFLICTS).ifPresent(v ->
                    conflicts.merge(replica.name() + "#" + replica.incarnations(), v, Math::max));
        }
    }

    private static Thread daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void join(Thread t) {
        try {
            t.join(240_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
