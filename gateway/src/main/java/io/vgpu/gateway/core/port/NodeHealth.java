package io.vgpu.gateway.core.port;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Node health as the scheduler judges it (spec §7.2: the handshake and allocatable GPUs). Implemented
 * by the Kubernetes adapter, which may write the handshake annotation while judging.
 */
public interface NodeHealth {

    /** Every node is healthy (no handshake), for tests and clusters without a device plugin handshake. */
    NodeHealth ALWAYS = node -> CompletableFuture.completedFuture(true);

    /**
     * @param node the latest observation of the node
     * @return whether its devices may be offered; never completes exceptionally
     */
    CompletionStage<Boolean> healthy(NodeObservation node);

    /** Forgets what was remembered about a deleted node. */
    default void forget(String node) {
    }
}
