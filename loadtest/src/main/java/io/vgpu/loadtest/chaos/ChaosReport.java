package io.vgpu.loadtest.chaos;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The outcome of one chaos run: what was done, what the chaos was, what the driver saw, and every invariant
 * violation (there must be none).
 *
 * @param settings          the run's settings
 * @param startup           until the first cluster was formed and safe
 * @param duration          from the first pod to the end of the load
 * @param podsCreated       pods created through the webhook
 * @param podsFinished      pods placed, run and deleted
 * @param reservations      filters that reserved a node in the shared state
 * @param decisions         placements (a reservation followed by a successful bind)
 * @param filterCalls       {@code /filter} calls
 * @param noFit             filters that found no node (capacity full, or every candidate lost its race)
 * @param noFitAfterConflict no-fit answers in which a node was refused by the shared state
 * @param conflictsRetried  reservations the shared state refused, summed over every replica incarnation's
 *                          {@code vgpu_filter_reserve_conflicts_total} (each was followed by the next-best node)
 * @param staleConflicts    the part of {@code conflictsRetried} made by the stale replica
 * @param filterErrors      filters answered with an error or lost with their replica
 * @param bindErrors        binds answered with an error or lost with their replica
 * @param boundDespiteError binds whose answer was lost but which had bound the pod (found by the API check)
 * @param failoverRetries   calls that found their replica down and went to another one
 * @param allocateWithoutLock bound pods whose node lock did not name them when the device plugin looked
 * @param apiRequests       requests the API server served
 * @param eventsExpired     scheduling Events removed by the simulated event TTL
 * @param decisionP50Millis median filter-to-bound time
 * @param decisionP99Millis 99th percentile filter-to-bound time
 * @param decisionMaxMillis slowest filter-to-bound time
 * @param longestGapMillis  longest time without a placement over the whole run
 * @param kills             every kill and what the driver saw of it
 * @param phantoms          charges seen in a view for a pod already deleted (a delete not applied yet, mostly by the
 *                          stale replica); not counted as grants
 * @param latePhantoms      the part of {@code phantoms} still charged more than twice the stale lag plus 5 s after
 *                          the delete (a delete lost with an owner change, released by the resync or the periodic
 *                          repair)
 * @param longestLockHeldMillis the longest a node lock (API or an owner's) was seen held by a pod that no longer
 *                          binds and whose binds never failed (how close the correct build comes to the lock bounds)
 * @param abandoned         pods filtered onto the idle nodes and abandoned there
 * @param abandonedReserved the part of {@code abandoned} whose filter reserved a node (left to the sweeper)
 * @param duplicateBinds    placed pods bound again to another node (each must be refused without a Binding)
 * @param failedBindings    first Bindings the API server failed on purpose (the pod is filtered again)
 * @param rebinds           Bindings the API server accepted for a pod already bound to that node (harmless retries)
 * @param bindsElsewhere    Bindings the API server refused for a pod already bound to another node (violations)
 * @param checks            invariant checks run
 * @param viewsCompared     replicas' views compared with their owner's copy of the same node value (ScoredViews)
 * @param firstViolationMillis when the first violation was found, from the start of the load; -1 for none
 * @param violations        every violation found (must be empty)
 */
public record ChaosReport(ChaosSettings settings, Duration startup, Duration duration, long podsCreated,
                          long podsFinished, long reservations, long decisions, long filterCalls, long noFit,
                          long noFitAfterConflict, long conflictsRetried, long staleConflicts, long filterErrors,
                          long bindErrors, long boundDespiteError, long failoverRetries, long allocateWithoutLock,
                          long apiRequests, long eventsExpired, long decisionP50Millis, long decisionP99Millis,
                          long decisionMaxMillis, long longestGapMillis, List<ChaosStats.KillRecord> kills,
                          long phantoms, long latePhantoms, long longestLockHeldMillis, long abandoned,
                          long abandonedReserved,
                          long duplicateBinds, long failedBindings, long rebinds, long bindsElsewhere, long checks,
                          long viewsCompared, long firstViolationMillis, List<String> violations) {

    /** Copies lists. */
    public ChaosReport {
        kills = List.copyOf(kills);
        violations = List.copyOf(violations);
    }

    /** Whether the run is clean: every pod done, at least one kill survived when kills were asked for, no violation. */
    public boolean clean() {
        return violations.isEmpty() && podsFinished == settings.pods() && (settings.kills() == 0 || !kills.isEmpty());
    }

    /** A Markdown summary (docs/reliability.md quotes it). */
    public String toMarkdown() {
        StringBuilder out = new StringBuilder();
        ChaosSettings s = settings;
        out.append("| setting | value |\n|---|---|\n");
        row(out, "replicas", s.replicas() + " JVMs (" + String.join(" ", s.jvmOptions()) + "), quorum "
                + s.quorum() + ", backup count 1" + (s.staleReplica() >= 0
                ? ", replica " + s.staleReplica() + " stale by " + s.informerDelay().toSeconds() + " s" : ""));
        row(out, "cluster", s.nodes() + " nodes x " + s.gpusPerNode() + " GPUs (" + s.gpuSlots() + " slots, "
                + s.gpuMemMiB() + " MiB, 100 cores each)");
        row(out, "load", s.pods() + " pods, at most " + s.livePods() + " alive, " + s.schedulers()
                + " scheduler workers, reservation TTL " + s.reservationTtl().toSeconds() + " s, node-lock timeout "
                + s.nodeLockTimeout().toSeconds() + " s");
        out.append("\n| result | value |\n|---|---|\n");
        row(out, "cluster start (3 JVMs formed and safe)", millis(startup.toMillis()));
        row(out, "run time", millis(duration.toMillis()));
        row(out, "pods created / placed, run and deleted", podsCreated + " / " + podsFinished);
        row(out, "reservations (filters that reserved)", Long.toString(reservations));
        row(out, "decisions (reservation + successful bind)", decisions + String.format(Locale.ROOT,
                " (%.1f/s)", decisions / Math.max(0.001, duration.toMillis() / 1000.0)));
        row(out, "filter calls / no fit / no fit after a lost race", filterCalls + " / " + noFit + " / "
                + noFitAfterConflict);
        row(out, "conflicts retried (refused by the entry processors)", conflictsRetried
                + (s.staleReplica() >= 0 ? " (" + staleConflicts + " by the stale replica)" : ""));
        row(out, "filter errors / bind errors / binds found bound after a lost answer", filterErrors + " / "
                + bindErrors + " / " + boundDespiteError);
        row(out, "calls retried on another replica (replica down)", Long.toString(failoverRetries));
        row(out, "bound pods whose lock did not name them", Long.toString(allocateWithoutLock));
        row(out, "filter-to-bound latency p50 / p99 / max", millis(decisionP50Millis) + " / "
                + millis(decisionP99Millis) + " / " + millis(decisionMaxMillis));
        row(out, "longest time without a placement", millis(longestGapMillis));
        row(out, "API server requests / Events expired by the simulated event TTL", apiRequests + " / "
                + eventsExpired);
        row(out, "kills survived (kill -9, then restart)", Integer.toString(kills.size()));
        row(out, "charges of deleted pods seen in views / of them, held past twice the stale lag + 5 s (lost "
                + "deletes, repaired)", phantoms + " / " + latePhantoms);
        row(out, "longest a lock stayed with a pod that no longer binds (seen by the checks)",
                millis(longestLockHeldMillis));
        row(out, "pods filtered onto idle nodes and abandoned / of them reserved (left to the sweeper)", abandoned
                + " / " + abandonedReserved);
        row(out, "placed pods bound again elsewhere by a late scheduler (must be refused)",
                Long.toString(duplicateBinds));
        row(out, "first Bindings failed by the API server on purpose (the pod is filtered again)",
                Long.toString(failedBindings));
        row(out, "second Bindings at the API server: same node (accepted) / another node (refused: violations)",
                rebinds + " / " + bindsElsewhere);
        row(out, "replicas' views compared with their owner's copy of the same node value", Long.toString(viewsCompared));
        row(out, "invariant checks / violations", checks + " / " + violations.size()
                + (firstViolationMillis < 0 ? "" : " (the first after " + millis(firstViolationMillis) + ")"));
        if (!kills.isEmpty()) {
            out.append("\n| kill | victim | survivors safe after | victim back, cluster safe after | failed calls "
                    + "| slowest answer | longest outage seen by the driver |\n|---|---|---|---|---|---|---|\n");
            int i = 1;
            for (ChaosStats.KillRecord k : kills) {
                out.append("| ").append(i++).append(" | ").append(k.victim()).append(" | ")
                        .append(millis(k.safeAfterMillis())).append(" | ").append(millis(k.backAfterMillis()))
                        .append(" | ").append(k.failedCalls()).append(" | ").append(millis(k.slowestCallMillis()))
                        .append(" | ").append(millis(k.longestGapMillis())).append(" |\n");
            }
        }
        if (!violations.isEmpty()) {
            out.append("\nViolations:\n\n");
            violations.forEach(v -> out.append("- ").append(v).append('\n'));
        }
        return out.toString();
    }

    private static void row(StringBuilder out, String name, String value) {
        out.append("| ").append(name).append(" | ").append(value).append(" |\n");
    }

    private static String millis(long ms) {
        return ms >= 10_000 ? String.format(Locale.ROOT, "%.1f s", ms / 1000.0) : ms + " ms";
    }
}
