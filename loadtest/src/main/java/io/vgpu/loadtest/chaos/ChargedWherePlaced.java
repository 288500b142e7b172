package io.vgpu.loadtest.chaos;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * "Every pod the harness placed and has not deleted is charged on its node in that node's owner's dump": a placed pod
 * without its charge leaves its capacity looking free (the benchmark's stall of 2026-12-02, docs/benchmarks.md). A
 * bind charges its pod in the shared state before its Binding, so a charge goes missing only where the state was
 * rebuilt from the API server (every replica killed at once) or where informer ingest lost it, and ingest must put it
 * back within one ingest ({@link ChargedOnce#MOVE_BOUND}) and the slack, counted from the later of the placement and
 * the first round that saw the node's current owner (a replica incarnation) ready and owning it: a new owner first
 * lists its informers and resyncs what it took over. The stale replica ingests {@link ChaosSettings#informerDelay()}
 * late and its dump shows its copy that late again, so on its nodes the bound is one delay longer and the copy's age is
 * its dump time less one delay. A pod the driver has begun to end ({@link PodRecord#endingAtMillis}) is not checked.
 * Not thread-safe: the checker calls it under its lock.
 */
final class ChargedWherePlaced {

    private final ChaosSettings settings;
    private final Map<String, PodRecord> pods;
    private final Violations violations;
    /** Per node: its owner as last seen, since the first round that saw that owner. */
    private final Map<String, Owner> owners = new HashMap<>();
    /** This round: per node, its ready owner's dump. */
    private final Map<String, Owner> round = new HashMap<>();
    /** This round: every Bound charge, as "uid node". */
    private final Set<String> bound = new HashSet<>();

    ChargedWherePlaced(ChaosSettings settings, Map<String, PodRecord> pods, Violations violations) {
        this.settings = settings;
        this.pods = pods;
        this.violations = violations;
    }

    /** Before a round of dumps. */
    void begin() {
        round.clear();
        bound.clear();
    }

    /**
     * A ready replica's dump taken at {@code now} holds {@code node} as its owner.
     *
     * @param replica the replica and its incarnation (a restarted replica is a new owner)
     */
    void owner(String replica, boolean stale, String node, long now) {
        Owner known = owners.get(node);
        Owner seen = new Owner(replica, stale, known != null && known.replica().equals(replica) ? known.since() : now,
                now);
        owners.put(node, seen);
        round.put(node, seen);
    }

    /** A Bound charge of pod {@code uid} on {@code node} in this round. */
    void bound(String uid, String node) {
        bound.add(uid + " " + node);
    }

    /** After a round: every placed pod not being ended whose node's owner dumped in this round. */
    void end() {
        long allowedMillis = ChargedOnce.MOVE_BOUND.plus(ChaosSettings.SLACK).toMillis();
        for (PodRecord pod : pods.values()) {
            String node = pod.node;
            long placedAt = pod.placedAtMillis;
            boolean placed = pod.phase == PodRecord.Phase.BOUND || pod.phase == PodRecord.Phase.RUNNING;
            Owner owner = round.get(node);
            if (!placed || node.isEmpty() || placedAt == 0 || pod.endingAtMillis != 0 || owner == null
                    || bound.contains(pod.uid() + " " + node)) {
                continue;
            }
            long lag = owner.stale() ? settings.informerDelay().toMillis() : 0;
            long from = Math.max(placedAt, owner.since());
            long age = owner.now() - lag - from;
            if (age > allowedMillis + lag) {
                violations.add("uncharged", pod.uid(), "pod " + pod.name + ", bound to " + node + " "
                        + (owner.now() - placedAt) + " ms before, is not charged there in its owner " + owner.replica()
                        + "'s dump, " + (owner.now() - owner.since()) + " ms after that owner was first seen"
                        + (lag == 0 ? "" : " (a copy " + lag + " ms late)") + " (bound " + (allowedMillis + lag)
                        + " ms: one ingest, the slack" + (lag == 0 ? "" : " and the stale ingest's delay") + ")");
            }
        }
    }

    /** A node's owner: the replica incarnation, since when it was seen owning the node, and this round's dump time. */
    private record Owner(String replica, boolean stale, long since, long now) {
    }
}
