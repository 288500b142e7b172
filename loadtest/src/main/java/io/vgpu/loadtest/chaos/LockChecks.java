package io.vgpu.loadtest.chaos;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * "No lock held by a pod that no longer binds", for the API annotation and for the owners' shared-state locks. A
 * holder that binds (or is bound and waits for its device plugin) may hold its lock; any other holder is followed
 * from the check that first sees it and is a violation once it has held the lock past its bound:
 * <ul>
 *   <li>API annotation: a failed bind removes it at once, the device plugin after the binding: the lock grace
 *       ({@link #LOCK_GRACE}) plus slack;</li>
 *   <li>an owner's shared-state lock: released when the owner's informer shows the annotation gone, or by the owner's
 *       periodic release of locks whose annotation never appeared (after the grace, every sweep period); a stale
 *       owner sees the annotation go one delay late and its view shows the release one delay later again;</li>
 *   <li>a lock left by a bind that died with its replica, or by a failed bind whose release failed or raced a late
 *       lock write: nobody releases it; the next contended bind on its node takes it over once it is older than the
 *       lock timeout. Its bound adds the lock timeout and the delay.</li>
 * </ul>
 * A lock is never exempt for being older than the lock timeout: a build that never releases its locks would hide
 * behind it (every lock is past that age before its bound is). Not thread-safe: the checker calls it under its lock.
 */
final class LockChecks {

    /** {@code StateIngest.LOCK_GRACE_MILLIS}: a shared lock whose annotation has not appeared within it is released. */
    static final Duration LOCK_GRACE = Duration.ofSeconds(5);

    private final ChaosSettings settings;
    private final Map<String, PodRecord> pods;
    private final Violations violations;
    private final Map<String, Long> heldByNonBinder = new HashMap<>();
    private final Set<String> seen = new HashSet<>();

    LockChecks(ChaosSettings settings, Map<String, PodRecord> pods, Violations violations) {
        this.settings = settings;
        this.pods = pods;
        this.violations = violations;
    }

    /** Before a check: nothing seen yet. */
    void begin() {
        seen.clear();
    }

    /** After a check: a lock no longer seen is no longer followed. */
    void end() {
        heldByNonBinder.keySet().retainAll(seen);
    }

    /**
     * One lock seen held.
     *
     * @param where     {@code api}, or {@code state(<replica>)} for an owner's view
     * @param staleView whether it was seen in the stale replica's view
     * @param nowMillis the time of the observation
     */
    void held(String where, boolean staleView, String node, String holder, long nowMillis) {
        PodRecord pod = pods.get(holder);
        if (pod != null && pod.mayHoldLock()) {
            return;
        }
        String key = where + " " + node + " " + holder;
        seen.add(key);
        long firstSeen = heldByNonBinder.computeIfAbsent(key, k -> nowMillis);
        long allowed = bound(where, staleView, pod != null && pod.mayHaveLeftLock()).toMillis();
        if (nowMillis - firstSeen > allowed) {
            violations.add("stale-lock", key, where + " lock on " + node + " held by " + holder + " ("
                    + (pod == null ? "unknown pod" : pod.phase + (pod.mayHaveLeftLock() ? ", a bind failed" : ""))
                    + ") for " + (nowMillis - firstSeen) + " ms after it stopped binding (bound " + allowed + " ms)");
        }
    }

    /** Whether a lock still held once the run is over is legitimate: only one a failed or interrupted bind left. */
    boolean mayOutliveTheRun(String holder) {
        PodRecord pod = pods.get(holder);
        return pod != null && pod.mayHaveLeftLock();
    }

    private Duration bound(String where, boolean staleView, boolean leftByAFailedBind) {
        Duration base = LOCK_GRACE.plus(ChaosSettings.SLACK).plus(settings.checkEvery().multipliedBy(2));
        if (!"api".equals(where)) {
            base = base.plus(ChaosSettings.SWEEP_PERIOD)
                    .plus(staleView ? settings.informerDelay().multipliedBy(2) : Duration.ZERO);
        }
        return leftByAFailedBind ? base.plus(settings.nodeLockTimeout()).plus(settings.informerDelay()) : base;
    }
}
