package io.vgpu.loadtest.chaos;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * "No lock held by a pod that no longer binds", for the API annotation and for the owners' shared-state locks. A
 * holder that binds (or is bound and waits for its device plugin) may hold its lock; any other holder is followed
 * from the check that first sees it and is a violation once it has held the lock past what the mechanism allows:
 * <ul>
 *   <li>API annotation: the device plugin removes it before the pod runs, a failed bind at once: the lock grace
 *       ({@link #LOCK_GRACE}) plus slack after it was first seen;</li>
 *   <li>an owner's shared-state lock (checked only while the owner is ready: its informers have listed): released
 *       when the owner's informer shows the annotation gone; an owner that missed the annotation (it took the key
 *       over meanwhile) releases it once it is older than the grace, at its next periodic release. So: held a sweep
 *       period plus slack after it was first seen, and older than the grace plus a sweep period plus slack. A stale
 *       owner sees the annotation go one delay late and its view shows the release one delay later again;</li>
 *   <li>a lock that a failed or interrupted bind may have left (its release failed, raced a late lock write, or died
 *       with its replica): nothing releases it but the next contended bind on its node once it is older than the
 *       lock timeout, and no bind may come (the end of a run, a cluster still forming): not bounded in time.</li>
 * </ul>
 * A lock is never exempt for being older than the lock timeout: a build that never releases its locks would hide
 * behind it (every lock is past that age before its bound is). Under contention such a build's locks last until a
 * take-over at the lock timeout (30 s in the CI run), longer than any bound of a released lock above (17 s). Not
 * thread-safe: the checker calls it under its lock.
 */
final class LockChecks {

    /** {@code NodeLocks.GRACE_MILLIS}: a shared lock whose annotation has not appeared within it is released. */
    static final Duration LOCK_GRACE = Duration.ofSeconds(5);

    private final ChaosSettings settings;
    private final Map<String, PodRecord> pods;
    private final Violations violations;
    private final Map<String, Long> heldByNonBinder = new HashMap<>();
    private final Set<String> seen = new HashSet<>();
    private long longestHeld;

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

    /** The longest a lock was seen held by a pod that no longer binds and whose binds never failed, in ms. */
    long longestHeld() {
        return longestHeld;
    }

    /**
     * One lock seen held.
     *
     * @param where      {@code api}, or {@code state(<replica>)} for an owner's view
     * @param staleView  whether it was seen in the stale replica's view
     * @param sinceMillis when the lock was taken
     * @param nowMillis  the time of the observation
     */
    void held(String where, boolean staleView, String node, String holder, long sinceMillis, long nowMillis) {
        PodRecord pod = pods.get(holder);
        if (pod != null && (pod.mayHoldLock() || pod.mayHaveLeftLock())) {
            return; // binding, or a lock a failed bind may have left (see above)
        }
        String key = where + " " + node + " " + holder;
        seen.add(key);
        long heldFor = nowMillis - heldByNonBinder.computeIfAbsent(key, k -> nowMillis);
        longestHeld = Math.max(longestHeld, heldFor);
        Duration lag = staleView ? settings.informerDelay().multipliedBy(2) : Duration.ZERO;
        boolean api = "api".equals(where);
        long heldBound = (api ? LOCK_GRACE.plus(ChaosSettings.SLACK)
                : ChaosSettings.SWEEP_PERIOD.plus(ChaosSettings.SLACK).plus(lag)).toMillis();
        long ageBound = api ? 0 : LOCK_GRACE.plus(ChaosSettings.SWEEP_PERIOD).plus(ChaosSettings.SLACK).plus(lag)
                .toMillis();
        long age = nowMillis - sinceMillis;
        if (heldFor > heldBound && age > ageBound) {
            violations.add("stale-lock", key, where + " lock on " + node + " held by " + holder + " ("
                    + (pod == null ? "unknown pod" : pod.phase) + ") for " + heldFor + " ms after it stopped binding "
                    + "(bound " + heldBound + " ms), taken " + age + " ms ago"
                    + (api ? "" : " (bound " + ageBound + " ms)"));
        }
    }

    /** Whether a lock still held once the run is over is legitimate: only one a failed or interrupted bind left. */
    boolean mayOutliveTheRun(String holder) {
        PodRecord pod = pods.get(holder);
        return pod != null && pod.mayHaveLeftLock();
    }
}
