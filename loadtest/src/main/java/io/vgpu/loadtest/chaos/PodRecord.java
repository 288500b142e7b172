package io.vgpu.loadtest.chaos;

import io.fabric8.kubernetes.api.model.Pod;

/**
 * The driver's record of one pod through its life:
 * <pre>
 *   PENDING ──filter+bind OK──► BOUND ──device plugin: bind-phase=success, lock released──► RUNNING ──► DELETED
 *      ▲  │ no fit, error, replica died                                 └── plugin found no lock ──► DELETED
 *      └──┘ (retried after a back-off; a pod found bound meanwhile goes to BOUND)
 * </pre>
 * Fields are written by one driver thread at a time (the pod moves between queues) and read by the checker.
 */
final class PodRecord {

    enum Phase { PENDING, BOUND, RUNNING, DELETED }

    final String name;
    final long createdAtMillis;
    volatile Pod pod;
    volatile Phase phase = Phase.PENDING;
    volatile String node = "";
    /** When the driver learnt that the pod was bound to {@link #node} (0 while it is not): written before it. */
    volatile long placedAtMillis;
    /** A bind call for this pod is on its way (its lock may be held legitimately). */
    volatile boolean bindInFlight;
    /** A bind call for this pod died with its replica: a lock it left blocks its node until the lock timeout. */
    volatile boolean bindInterrupted;
    /** A bind call for this pod answered an error: its lock release may have failed or raced a late lock write. */
    volatile boolean bindFailed;
    /** Check the API before filtering again: an earlier bind may have landed although its answer was lost. */
    volatile boolean verifyBeforeFilter;
    /**
     * When the driver began to end the pod (0 before): set before it is marked {@code Succeeded}/{@code Failed} or
     * deleted, so from then on its charge may go.
     */
    volatile long endingAtMillis;
    /** When the driver deleted the pod (0 while it exists). */
    volatile long deletedAtMillis;
    volatile int attempts;
    /** A long pod runs until then at the latest (0 for a brief one); written before it is queued to run. */
    volatile long longRunUntilMillis;
    /** Restarts of every replica completed before the long pod began to run. */
    volatile int fullRestartsBeforeRun;
    /** Filtered onto an idle node and never bound ({@link ChaosSettings#abandonEvery()}). */
    volatile boolean abandoned;

    PodRecord(String name, Pod pod, long createdAtMillis) {
        this.name = name;
        this.pod = pod;
        this.createdAtMillis = createdAtMillis;
    }

    String uid() {
        return pod.getMetadata().getUid();
    }

    /** Whether a bind of this pod failed or died: a lock it took may stay until a later bind takes it over. */
    boolean mayHaveLeftLock() {
        return bindInterrupted || bindFailed;
    }

    /** Whether a node lock held by this pod is legitimate now (it is binding or waiting for its device plugin). */
    boolean mayHoldLock() {
        return bindInFlight || phase == Phase.BOUND;
    }
}
