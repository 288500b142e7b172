package io.vgpu.deviceplugin.core.pending;
import io.vgpu.deviceplugin.core.cluster.PodView;

/**
 * A pod by namespace and name.
 *
 * @param namespace pod namespace
 * @param name      pod name
 */
public record PodRef(String namespace, String name) {

    /** The pod's reference. */
    public static PodRef of(PodView pod) {
        return new PodRef(pod.namespace(), pod.name());
    }

    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
