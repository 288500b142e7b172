package io.vgpu.gateway.scheduling;

import io.vgpu.state.model.ClusterStateUnavailableException;

import java.util.concurrent.TimeoutException;

/**
 * Why a {@code /filter} or {@code /bind} placed or bound nothing: the bounded set of reasons the
 * {@code vgpu_filter_failures_total} and {@code vgpu_bind_failures_total} counters are labelled with. Expected
 * failures name one in their outcome ({@link FilterOutcome}, {@link BindOutcome}); an unexpected one gets
 * {@link #of(Throwable)}.
 */
public enum DecisionFailure {

    /** Filter: every listed node was rejected (the rejected-nodes counter says why). */
    NO_FIT("no_fit"),
    /** Filter: the namespace's ResourceQuota refused the pod in the shared quota map. */
    QUOTA_EXCEEDED("quota_exceeded"),
    /** Filter: every reservation attempt was refused by the shared state (capacity taken meanwhile). */
    RESERVATION_CONFLICT("reservation_conflict"),
    /** Either verb: the request could not be decided (no pod, an invalid name, UID, request or weights). */
    INVALID_REQUEST("invalid_request"),
    /** Filter: the filter annotations could not be written to the pod; the reservation was undone. */
    ANNOTATE_FAILED("annotate_failed"),
    /** Bind: the pod of that name has another UID: the one kube-scheduler bound is gone (nothing was changed). */
    UID_MISMATCH("uid_mismatch"),
    /** Bind: neither the informer cache nor the API server knows the pod. */
    POD_NOT_FOUND("pod_not_found"),
    /**
     * Bind: the informer cache has not seen the pod and the API server could not be read (rate limit, overload, an
     * error): nothing was changed, the pod may well exist.
     */
    POD_UNREADABLE("pod_unreadable"),
    /** Bind: the node is not in the informer cache (synced: the pod's reservation was dropped). */
    NODE_NOT_FOUND("node_not_found"),
    /** Bind: the node is not in the informer cache, which has not synced yet: nothing was changed. */
    CACHE_NOT_SYNCED("cache_not_synced"),
    /** Bind: the pod is bound to another node already. */
    BOUND_ELSEWHERE("bound_elsewhere"),
    /** Bind: the shared state holds no reservation for the pod on that node (it was never filtered there). */
    NO_RESERVATION("no_reservation"),
    /** Bind: the reservation expired and its devices were taken meanwhile. */
    RESERVATION_EXPIRED("reservation_expired"),
    /** Bind: the node has no registered devices in the shared state. */
    NODE_UNREGISTERED("node_unregistered"),
    /** Bind: the node lock was still held by another pod when the bounded wait ended. */
    LOCK_TIMEOUT("lock_timeout"),
    /** Bind: the node lock annotation could not be written. */
    LOCK_FAILED("lock_failed"),
    /** Bind: the bind-phase annotation could not be written. */
    BIND_PHASE_FAILED("bind_phase_failed"),
    /** Bind: the API server refused the Binding. */
    BINDING_FAILED("binding_failed"),
    /** Either verb: the shared state or the API server did not answer in time. */
    TIMEOUT("timeout"),
    /** Either verb: the shared state refused the call (no quorum, member shutting down). */
    STATE_UNAVAILABLE("state_unavailable"),
    /** Anything else. */
    ERROR("error");

    private final String label;

    DecisionFailure(String label) {
        this.label = label;
    }

    /** The metric label. */
    public String label() {
        return label;
    }

    /** The reason of an unexpected failure of a decision's chain: a timeout, an unavailable state, or an error. */
    public static DecisionFailure of(Throwable failure) {
        Throwable cause = failure;
        while (cause != null) {
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

    /** The text kube-scheduler receives for an unexpected failure: its message, else its cause's, else its type. */
    static String message(Throwable e) {
        Throwable cause = e.getCause() != null && e.getMessage() == null ? e.getCause() : e;
        return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    }
}
