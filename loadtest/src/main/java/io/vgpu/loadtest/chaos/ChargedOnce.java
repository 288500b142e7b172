package io.vgpu.loadtest.chaos;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * "A pod is charged once", on the union of one round's owner dumps (since issue 14 a node's charges are in its
 * owner's dump only, so the nodes one pod is charged on may be in different replicas' dumps). Two rules:
 * <ol>
 *   <li><b>from the placement</b>: a pod Bound on a node other than the one the harness bound it to, in an owner's
 *       copy that is more than {@link #MOVE_BOUND} plus the slack younger than that binding. A charge on the old
 *       node of a moved pod is released by the re-filter that moved it, before the pod's bind to its new node
 *       answered (or by an ingest move right after); an owner's copy shows that within its lag (the informer delay
 *       in the stale replica's dump, which is fed through the same delay). So the copy's age is its dump time less
 *       that lag, and the bound counts from the binding the harness knows, not from when a round first saw the
 *       charge: a charge that a late observation puts back on the old node after the pod moved (the broken build
 *       {@code ingest-charges-twice}) is already past it when it first shows, whoever owns the node;</li>
 *   <li><b>from the first sighting</b>: a pod Bound on two nodes (placed or not yet), or Bound elsewhere, still
 *       seen {@link #MOVE_BOUND} plus the slack, two checks and (with the stale replica's dump in the round) its
 *       delay after the first round that saw it; once the run is quiet, at once.</li>
 * </ol>
 * Not thread-safe: the checker calls it under its lock.
 */
final class ChargedOnce {

    /**
     * One ingest move: the new node's owner records the pod, looks up the pod index, reads the pod and releases the
     * old node; or a filter reserves, annotates and releases. Milliseconds each; seconds on a loaded machine.
     */
    static final Duration MOVE_BOUND = Duration.ofSeconds(5);

    private final ChaosSettings settings;
    private final Map<String, PodRecord> pods;
    private final Violations violations;
    /** Each double charge followed (pod key), from the first round that saw it. */
    private final Map<String, Long> twiceSince = new HashMap<>();
    /** This round: each pod ("uid name") and, per node it is Bound on, the dump that showed it. */
    private final Map<String, Map<String, Sighting>> round = new HashMap<>();
    private final Set<String> replicas = new HashSet<>();
    private boolean roundStale;
    private long roundNow;
    /** The other side of the same sightings: a placed pod is charged where it was placed. */
    private final ChargedWherePlaced wherePlaced;

    ChargedOnce(ChaosSettings settings, Map<String, PodRecord> pods, Violations violations) {
        this.settings = settings;
        this.pods = pods;
        this.violations = violations;
        this.wherePlaced = new ChargedWherePlaced(settings, pods, violations);
    }

    /** Before a round of dumps. */
    void begin() {
        wherePlaced.begin();
        round.clear();
        replicas.clear();
        roundStale = false;
        roundNow = 0;
    }

    /** One replica's dump is in this round (whatever it holds). */
    void dump(String replica, boolean stale, long now) {
        replicas.add(replica);
        roundStale |= stale;
        roundNow = Math.max(roundNow, now);
    }

    /**
     * {@code node} is in the dump of its owner {@code replica} (named with its incarnation: a restarted replica is a new
     * owner), ready, taken at {@code now} ({@link ChargedWherePlaced}).
     */
    void owner(String replica, boolean stale, String node, long now) {
        wherePlaced.owner(replica, stale, node, now);
    }

    /** A Bound charge of pod {@code uid}/{@code name} on {@code node} in {@code replica}'s dump taken at {@code now}. */
    void bound(String replica, boolean stale, String uid, String name, String node, long now) {
        wherePlaced.bound(uid, node);
        round.computeIfAbsent(uid + " " + name, p -> new TreeMap<>()).put(node, new Sighting(replica, stale, now));
    }

    /**
     * After a round: applies both rules to the union of its dumps; a double charge no longer seen is no longer
     * followed.
     *
     * @param quiet the run is over and every view has settled
     */
    void end(boolean quiet) {
        if (replicas.isEmpty()) {
            return;
        }
        wherePlaced.end();
        String dumps = String.join("+", new TreeSet<>(replicas));
        round.forEach((pod, nodes) -> check(pod, nodes, dumps, quiet));
        twiceSince.keySet().retainAll(round.keySet());
    }

    private void check(String pod, Map<String, Sighting> nodes, String dumps, boolean quiet) {
        String name = pod.substring(pod.indexOf(' ') + 1);
        PodRecord record = pods.get(name);
        String placed = record == null ? "" : record.node;
        long placedAt = record == null ? 0 : record.placedAtMillis;
        if (!placed.isEmpty() && placedAt > 0) {
            nodes.forEach((node, seen) -> {
                if (!node.equals(placed)) {
                    fromPlacement(pod, name, record, placed, placedAt, node, seen);
                }
            });
        }
        boolean elsewhere = !placed.isEmpty() && !(nodes.size() == 1 && nodes.containsKey(placed));
        if (nodes.size() < 2 && !elsewhere) {
            twiceSince.remove(pod);
            return;
        }
        long allowed = MOVE_BOUND.plus(ChaosSettings.SLACK).plus(settings.checkEvery().multipliedBy(2))
                .plus(roundStale ? settings.informerDelay() : Duration.ZERO).toMillis();
        long since = twiceSince.computeIfAbsent(pod, k -> roundNow);
        if (quiet || roundNow - since > allowed) {
            violations.add("charged-twice", pod, "views of " + dumps + ": pod " + name + " Bound on "
                    + nodes.keySet() + (placed.isEmpty() ? "" : " (bound to " + placed + ")")
                    + deleted(record, roundNow) + " for " + (roundNow - since) + " ms"
                    + (quiet ? " once the run is quiet" : " (bound " + allowed + " ms)"));
        }
    }

    private void fromPlacement(String pod, String name, PodRecord record, String placed, long placedAt, String node,
                               Sighting seen) {
        long lag = seen.stale() ? settings.informerDelay().toMillis() : 0;
        long allowed = MOVE_BOUND.plus(ChaosSettings.SLACK).toMillis();
        long age = seen.now() - lag - placedAt;
        if (age > allowed) {
            violations.add("charged-twice", pod, "pod " + name + " Bound on " + node + " in its owner "
                    + seen.replica() + "'s dump " + (seen.now() - placedAt) + " ms after it was bound to " + placed
                    + (lag == 0 ? "" : " (a copy " + lag + " ms late: " + age + " ms)") + deleted(record, seen.now())
                    + " (bound " + allowed + " ms: one move and the slack)");
        }
    }

    /** Says when the pod was deleted, if it was before the view: a charge its delete did not release. */
    private static String deleted(PodRecord record, long now) {
        return record != null && record.deletedAtMillis != 0 && record.deletedAtMillis < now
                ? ", deleted " + (now - record.deletedAtMillis) + " ms before the view," : "";
    }

    /** Which dump showed a charge, and when it was taken. */
    private record Sighting(String replica, boolean stale, long now) {
    }
}
