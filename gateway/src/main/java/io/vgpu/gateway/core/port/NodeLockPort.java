package io.vgpu.gateway.core.port;

import io.vgpu.gateway.core.nodelock.NamespacedName;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * The node lock annotation {@code hami.io/mutex.lock} (spec §11.2), kept for the stock HAMi device plugin,
 * which finds the pod it is allocating through it. The implementation runs the pure decisions of
 * {@code io.vgpu.gateway.core.nodelock} against live reads ({@code GET node}, never a cache).
 *
 * <p>Contract:
 * <ul>
 *   <li>Calls for the same node are serialised inside this process (one at a time, in call order); calls
 *       for different nodes run in parallel. Across processes, the resourceVersion guard of every write
 *       makes concurrent lockers of one node race safely: exactly one wins, the others see contention.</li>
 *   <li>A lock whose owner pod exists is never overwritten before {@code timeout}; an expired lock or one
 *       whose owner pod is gone (404) is taken over.</li>
 *   <li>Non-blocking; every API call has a timeout; stages never complete exceptionally.</li>
 *   <li>{@code lock} is re-entrant for the same pod; {@code release} is idempotent.</li>
 * </ul>
 */
public interface NodeLockPort {

    /**
     * HAMi's {@code LockNode}: takes the lock for {@code pod} unless another live pod holds it.
     *
     * @param node    node name
     * @param pod     the pod being bound
     * @param timeout lock expiry ({@code --node-lock-timeout}, 5m by default)
     */
    CompletionStage<LockOutcome> lock(String node, NamespacedName pod, Duration timeout);

    /**
     * HAMi's {@code ReleaseNodeLock}: removes the lock if it names {@code pod} (or is a legacy owner-less
     * lock). With {@code skipOwnerCheck} it removes whatever lock it first sees, unless that changes
     * meanwhile.
     */
    CompletionStage<ReleaseOutcome> release(String node, NamespacedName pod, boolean skipOwnerCheck);
}
