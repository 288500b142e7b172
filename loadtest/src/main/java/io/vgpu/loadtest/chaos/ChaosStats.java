package io.vgpu.loadtest.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** Counters of one run, updated by every driver thread. */
final class ChaosStats {

    final LongAdder podsCreated = new LongAdder();
    final LongAdder webhookCalls = new LongAdder();
    final LongAdder filterCalls = new LongAdder();
    /** Filters that reserved a node (each is one reservation in the shared state). */
    final LongAdder reservations = new LongAdder();
    final LongAdder noFit = new LongAdder();
    /** No-fit answers in which at least one node was refused by the shared state (a lost race). */
    final LongAdder noFitAfterConflict = new LongAdder();
    final LongAdder filterErrors = new LongAdder();
    final LongAdder bindCalls = new LongAdder();
    /** Placements: a filter followed by a successful bind. */
    final LongAdder decisions = new LongAdder();
    final LongAdder bindErrors = new LongAdder();
    /** Binds whose answer was lost with a dying replica but which had bound the pod. */
    final LongAdder boundDespiteError = new LongAdder();
    /** Calls that found their replica down (connection refused/reset) and went to another one. */
    final LongAdder failoverRetries = new LongAdder();
    final LongAdder pluginAllocations = new LongAdder();
    /** Bound pods whose node lock did not name them when their device plugin looked. */
    final LongAdder allocateWithoutLock = new LongAdder();
    final LongAdder podsDeleted = new LongAdder();
    /** Pods filtered onto an idle node and abandoned there; of them, those whose filter reserved a node. */
    final LongAdder abandoned = new LongAdder();
    final LongAdder abandonedReserved = new LongAdder();
    /** Placed pods bound again to another node (the gateway must refuse). */
    final LongAdder duplicateBinds = new LongAdder();
    final LongAdder eventsExpired = new LongAdder();
    final LatencyRecorder decisionLatency = new LatencyRecorder();
    final AtomicLong lastDecisionNanos = new AtomicLong(System.nanoTime());
    final AtomicLong longestDecisionGapNanos = new AtomicLong();
    final List<KillRecord> kills = new ArrayList<>();

    void decided(long startNanos) {
        long now = System.nanoTime();
        decisions.increment();
        decisionLatency.record((now - startNanos) / 1_000_000);
        long previous = lastDecisionNanos.getAndSet(now);
        longestDecisionGapNanos.accumulateAndGet(now - previous, Math::max);
    }

    /**
     * One kill -9 and what the driver saw of it.
     *
     * @param victim          replica name
     * @param safeAfterMillis kill until the survivors' cluster was safe again (members and backups in sync)
     * @param backAfterMillis kill until the restarted replica was ready and the full cluster safe
     * @param failedCalls     driver calls that failed between the kill and the survivors being safe
     * @param slowestCallMillis the slowest filter or bind answered in that window
     * @param longestGapMillis the longest time without a placement in that window
     */
    record KillRecord(String victim, long safeAfterMillis, long backAfterMillis, long failedCalls,
                      long slowestCallMillis, long longestGapMillis) {
    }

    /** Millisecond latencies: count, max, and percentiles from a fixed histogram (1 ms buckets up to 60 s). */
    static final class LatencyRecorder {
        private static final int LIMIT = 60_000;
        private final long[] buckets = new long[LIMIT + 1];
        private long count;
        private long max;

        synchronized void record(long millis) {
            int b = (int) Math.max(0, Math.min(LIMIT, millis));
            buckets[b]++;
            count++;
            max = Math.max(max, millis);
        }

        synchronized long count() {
            return count;
        }

        synchronized long max() {
            return max;
        }

        /** The {@code p}-th percentile (0 < p ≤ 100), in ms; 0 when empty. */
        synchronized long percentile(double p) {
            if (count == 0) {
                return 0;
            }
            long rank = (long) Math.ceil(p / 100.0 * count);
            long seen = 0;
            for (int i = 0; i <= LIMIT; i++) {
                seen += buckets[i];
                if (seen >= rank) {
                    return i;
                }
            }
            return max;
        }
    }

    synchronized void killed(KillRecord record) {
        kills.add(record);
    }

    synchronized List<KillRecord> kills() {
        return new ArrayList<>(kills);
    }
}
