package io.vgpu.deviceplugin.core.pending;
import io.vgpu.deviceplugin.core.cluster.PodView;

import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeLock;
import io.vgpu.state.codec.NodeLockCodec;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How the plugin guesses which pod kubelet is allocating for (kubelet says nothing about the pod;
 * HAMi {@code GetPendingPod}, spec §2.1). Pure and thread-safe.
 *
 * <pre>
 *  node lock ─ absent / legacy / owner part empty ──► list pods on the node, first pending one
 *            ─ names ns/name ───────────────────────► GET that pod, as it is (no phase checks)
 *            ─ unparsable ──────────────────────────► error (no fallback)
 * </pre>
 */
public final class PendingPodRules {

    /** {@code hami.io/bind-phase} while the scheduler has bound and the plugin has not finished. */
    public static final String PHASE_ALLOCATING = "allocating";
    /** {@code hami.io/bind-phase} after the last container was served. */
    public static final String PHASE_SUCCESS = "success";
    /** {@code hami.io/bind-phase} after a failed {@code Allocate}. */
    public static final String PHASE_FAILED = "failed";

    private PendingPodRules() {
    }

    /** Where to look for the pod, from the node's annotations. */
    public static Lookup fromNode(Map<String, String> nodeAnnotations) {
        String value = nodeAnnotations.get(HamiAnnotations.NODE_LOCK);
        if (value == null) {
            return new Lookup.ListPods();
        }
        Decoded<NodeLock> lock = NodeLockCodec.parse(value);
        if (!lock.isOk()) {
            return new Lookup.Invalid(lock.error());
        }
        if (lock.value().legacy() || !lock.value().namesOwner()) {
            return new Lookup.ListPods();
        }
        return new Lookup.Owner(new PodRef(lock.value().namespace(), lock.value().name()));
    }

    /**
     * The first pod in list order that is {@code Pending}, carries {@code hami.io/bind-time}, has
     * {@code hami.io/bind-phase} {@code allocating} or {@code success}, and {@code hami.io/vgpu-node}
     * equal to {@code node}. No time ordering, as in HAMi.
     */
    public static Optional<PodView> firstPending(List<PodView> podsInListOrder, String node) {
        return podsInListOrder.stream().filter(p -> isPending(p, node)).findFirst();
    }

    /** {@code no binding pod found on node <node>}. */
    public static String noBindingPod(String node) {
        return "no binding pod found on node " + node;
    }

    /** The API server's not-found text for a pod. */
    public static String podNotFound(String name) {
        return "pods \"" + name + "\" not found";
    }

    /** The API server's not-found text for a node. */
    public static String nodeNotFound(String name) {
        return "nodes \"" + name + "\" not found";
    }

    private static boolean isPending(PodView pod, String node) {
        String phase = pod.annotation(HamiAnnotations.BIND_PHASE);
        return "Pending".equals(pod.phase())
                && pod.annotation(HamiAnnotations.BIND_TIME) != null
                && (PHASE_ALLOCATING.equals(phase) || PHASE_SUCCESS.equals(phase))
                && node.equals(pod.annotation(HamiAnnotations.VGPU_NODE));
    }

    /** Where to look. */
    public sealed interface Lookup permits Lookup.Owner, Lookup.ListPods, Lookup.Invalid {

        /**
         * GET the lock owner.
         *
         * @param pod the owner named by the lock
         */
        record Owner(PodRef pod) implements Lookup {
        }

        /** List the node's pods and take the first pending one. */
        record ListPods() implements Lookup {
        }

        /**
         * The lock value cannot be parsed: fail.
         *
         * @param message the parse error
         */
        record Invalid(String message) implements Lookup {
        }
    }
}
