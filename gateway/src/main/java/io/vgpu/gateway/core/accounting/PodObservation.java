package io.vgpu.gateway.core.accounting;

import java.util.Map;

/**
 * What the pod informer tells the tracker about one pod (trimmed; no fabric8 types).
 *
 * @param uid                  metadata.uid
 * @param namespace            metadata.namespace
 * @param name                 metadata.name
 * @param phase                status.phase ({@code Pending}, {@code Running}, {@code Succeeded}, {@code Failed}, …)
 * @param terminating          metadata.deletionTimestamp is set
 * @param annotations          metadata.annotations
 * @param initCount            number of init containers in the spec
 * @param initContainersDoneOk every init container status is Terminated with exit code 0
 */
public record PodObservation(String uid, String namespace, String name, String phase, boolean terminating,
                             Map<String, String> annotations, int initCount, boolean initContainersDoneOk) {

    /** Copies the annotations; nulls become empty. */
    public PodObservation {
        phase = phase == null ? "" : phase;
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
    }

    /** Succeeded or Failed: the pod holds nothing any more. */
    public boolean finished() {
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }
}
