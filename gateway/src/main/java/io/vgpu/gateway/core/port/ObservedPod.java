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

    /** Succeeded or Failed. */
    public boolean finished() {
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }
}
