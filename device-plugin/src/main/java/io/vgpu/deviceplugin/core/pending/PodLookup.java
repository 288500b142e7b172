package io.vgpu.deviceplugin.core.pending;
import io.vgpu.deviceplugin.core.cluster.PodView;

/** Whether the pod being allocated could be found ({@link PendingPodFinder}). */
public sealed interface PodLookup permits PodLookup.Found, PodLookup.Missing {

    /**
     * The pod.
     *
     * @param pod the pod as read from the API server
     */
    record Found(PodView pod) implements PodLookup {
    }

    /**
     * No pod: the message is what kubelet gets (e.g. {@code no binding pod found on node n1},
     * {@code pods "p" not found}, an API error).
     *
     * @param message       why
     * @param danglingOwner the pod the node lock names when that pod no longer exists, else null
     */
    record Missing(String message, PodRef danglingOwner) implements PodLookup {

        /** A miss without a dangling lock. */
        public Missing(String message) {
            this(message, null);
        }
    }
}
