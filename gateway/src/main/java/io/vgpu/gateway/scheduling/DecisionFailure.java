package io.vgpu.gateway.scheduling;

import io.vgpu.state.model.ClusterStateUnavailableException;

import java.util.concurrent.TimeoutException;

/**
 * Why a {@code /filter} or {@code /bind} decided nothing: a bounded set of reasons for the
 * {@code vgpu_filter_failures_total} and {@code vgpu_bind_failures_total} counters, carried through the bind's
 * {@code Future} chain as the failure itself (so that the text kube-scheduler sees stays HAMi's).
 */
public final class DecisionFailure extends RuntimeException {

    /** Every listed node was rejected (the rejected-nodes counter says why). */
    public static final String FILTER_NO_FIT = "no_fit";
    /** The namespace's ResourceQuota refused the pod in the shared quota map. */
    public static final String FILTER_QUOTA = "quota_exceeded";
    /** Every reservation attempt was refused by the shared state (capacity taken meanwhile). */
    public static final String FILTER_CONFLICT = "reservation_conflict";
    /** The request could not be decided (no pod, invalid requests or weights). */
    public static final String FILTER_INVALID = "invalid_request";
    /** The filter annotations could not be written to the pod; the reservation was undone. */
    public static final String FILTER_ANNOTATE = "annotate_failed";

    /** A name or the UID in the request is no valid Kubernetes name or UID (nothing was looked up). */
    public static final String BIND_INVALID = "invalid_request";
    /** The pod of that name has another UID: the one kube-scheduler bound is gone (nothing was changed). */
    public static final String BIND_UID_MISMATCH = "uid_mismatch";
    /** Neither the informer cache nor the API server knows the pod. */
    public static final String BIND_POD_NOT_FOUND = "pod_not_found";
    /** The node is not in the informer cache. */
    public static final String BIND_NODE_NOT_FOUND = "node_not_found";
    /** The pod is bound to another node already. */
    public static final String BIND_BOUND_ELSEWHERE = "bound_elsewhere";
    /** The shared state holds no reservation for the pod on that node (it was never filtered there). */
    public static final String BIND_NO_RESERVATION = "no_reservation";
    /** The reservation expired and its devices were taken meanwhile. */
    public static final String BIND_EXPIRED = "reservation_expired";
    /** The node has no registered devices in the shared state. */
    public static final String BIND_NODE_UNREGISTERED = "node_unregistered";
    /** The node lock was still held by another pod when the bounded wait ended. */
    public static final String BIND_LOCK_TIMEOUT = "lock_timeout";
    /** The node lock annotation could not be written. */
    public static final String BIND_LOCK_FAILED = "lock_failed";
    /** The bind-phase annotation could not be written. */
    public static final String BIND_PHASE = "bind_phase_failed";
    /** The API server refused the Binding. */
    public static final String BIND_BINDING = "binding_failed";

    /** The shared state did not answer in time (either verb). */
    public static final String TIMEOUT = "timeout";
    /** The shared state refused the call (no quorum, member shutting down). */
    public static final String STATE_UNAVAILABLE = "state_unavailable";
    /** Anything else. */
    public static final String ERROR = "error";

    private final String reason;

    /**
     * @param reason  one of the constants
     * @param message the text kube-scheduler receives in {@code Error}
     */
    public DecisionFailure(String reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
    }

    /** The reason constant. */
    public String reason() {
        return reason;
    }

    /** The reason of any failure of a decision's chain. */
    public static String reasonOf(Throwable failure) {
        Throwable cause = failure;
        while (cause != null) {
            if (cause instanceof DecisionFailure d) {
                return d.reason();
            }
            if (cause instanceof ClusterStateUnavailableException) {
                return STATE_UNAVAILABLE;
            }
            if (cause instanceof TimeoutException) {
                return TIMEOUT;
            }
            cause = cause.getCause() == cause ? null : cause.getCause();
        }
        return ERROR;
    }
}
