package io.vgpu.state.model;

/**
 * The shared state cannot serve the call right now: no split-brain quorum (this replica is on a minority
 * side), the member is shutting down, or the operation timed out. {@code /filter} and {@code /bind} answer
 * {@code Error} rather than allocate. Stages returned by {@link ClusterState} fail with this type for those
 * causes (the store's own exception is the cause); expected rejections are outcome values instead.
 */
public final class ClusterStateUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what could not be done
     * @param cause   the store's exception
     */
    public ClusterStateUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
