package io.vgpu.gateway.core.port;

import io.vgpu.gateway.core.PodSpec;
import io.vgpu.state.codec.HamiAnnotations;

import java.util.Objects;

/**
 * What the pod informers tell the gateway about one pod, trimmed: the scheduling view ({@link PodSpec}
 * with container resources, labels and only the {@code hami.io/*} and {@code nvidia.com/*} annotations;
 * no env, no status beyond what accounting needs).
 *
 * @param spec                 identity, scheduler name, node name, annotations, labels, containers
 * @param phase                status.phase ("" when unset)
 * @param terminating          metadata.deletionTimestamp is set
 * @param initContainersDoneOk every init container has a status Terminated with exit code 0
 * @param resourceVersion      metadata.resourceVersion: opaque, compare only for equality, never for order
 */
public record ObservedPod(PodSpec spec, String phase, boolean terminating, boolean initContainersDoneOk,
                          String resourceVersion) {

    /** Requires a spec; nulls become "". */
    public ObservedPod {
        Objects.requireNonNull(spec, "spec");
        phase = phase == null ? "" : phase;
        resourceVersion = resourceVersion == null ? "" : resourceVersion;
    }

    /** The pod's key. */
    public PodAddress key() {
        return new PodAddress(spec.namespace(), spec.name(), spec.uid());
    }

    /** spec.nodeName, "" when not bound. */
    public String boundNode() {
        return spec.nodeName();
    }

    /** {@code hami.io/bind-phase}, or null. */
    public String bindPhase() {
        return spec.annotation(HamiAnnotations.BIND_PHASE);
    }

    /**
     * Whether the pod is bound, or being bound by the bind of its current decision: its Binding landed
     * ({@code spec.nodeName}), or it carries a {@code bind-phase} that is not older than its filter decision
     * ({@code bind-time} &ge; {@code vgpu-time}, both Unix seconds).
     *
     * <p>Why the times: HAMi's {@code /filter} patch does not touch {@code bind-phase}, so a pod filtered again after a
     * failed or interrupted bind keeps the old bind's {@code allocating} beside the new decision's node and devices.
     * Read as "bound", that new decision would be recorded as a fact, past the capacity rule, although its bind has
     * not started and its reservation may be gone: the over-commit of the soak of 2026-12-07 (a bind to node B
     * interrupted by the restart of every replica, the pod filtered onto A afterwards, its reservation on A released
     * by a lagging observation, the annotation then charged on A as bound; docs/reliability.md). A missing or
     * unreadable time keeps the old reading (bound), as does a bind in the same second as the filter.
     */
    public boolean bindStarted() {
        if (!spec.nodeName().isEmpty()) {
            return true;
        }
        String phase = bindPhase();
        if (phase == null || phase.isEmpty()) {
            return false;
        }
        long bindTime = seconds(spec.annotation(HamiAnnotations.BIND_TIME));
        long decisionTime = seconds(spec.annotation(HamiAnnotations.VGPU_TIME));
        return bindTime < 0 || decisionTime < 0 || bindTime >= decisionTime;
    }

    private static long seconds(String value) {
        if (value == null || value.isEmpty()) {
            return -1;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Succeeded or Failed. */
    public boolean finished() {
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }
}
