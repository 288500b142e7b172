package io.vgpu.gateway.core.port;

import io.vgpu.state.codec.HamiAnnotations;

import java.util.Map;
import java.util.Objects;

/**
 * What the node informer tells the gateway about one node (trimmed: no fabric8 types, only the HAMi
 * annotations and the allocatable GPU count).
 *
 * @param name             metadata.name
 * @param annotations      the node's {@code hami.io/*} annotations only (register, score, cordon, handshake,
 *                         lock); hand it to {@code FilterDecider.idleView} or {@code NodeRegisterCodec.read}
 * @param allocatableGpus  status.allocatable of the configured count resource ({@code nvidia.com/gpu}),
 *                         rounded up; 0 when absent
 * @param resourceVersion  metadata.resourceVersion: opaque, compare only for equality, never for order
 * @param draMode          the node is labelled {@code vgpu.io/mode=dra}: its GPUs are offered through DRA,
 *                         so the extender must not place vGPU pods there, whatever annotations remain
 */
public record NodeObservation(String name, Map<String, String> annotations, long allocatableGpus,
                              String resourceVersion, boolean draMode) {

    /** Copies the map; nulls become empty. */
    public NodeObservation {
        Objects.requireNonNull(name, "name");
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
        resourceVersion = resourceVersion == null ? "" : resourceVersion;
    }

    /** A node in device-plugin mode. */
    public NodeObservation(String name, Map<String, String> annotations, long allocatableGpus, String resourceVersion) {
        this(name, annotations, allocatableGpus, resourceVersion, false);
    }

    /** {@code hami.io/node-nvidia-register}, or null. */
    public String register() {
        return annotations.get(HamiAnnotations.NODE_NVIDIA_REGISTER);
    }

    /** {@code hami.io/node-nvidia-score}, or null. */
    public String pairScores() {
        return annotations.get(HamiAnnotations.NODE_NVIDIA_SCORE);
    }

    /** {@code hami.io/device-cordon}, or null. */
    public String cordon() {
        return annotations.get(HamiAnnotations.DEVICE_CORDON);
    }

    /** {@code hami.io/node-handshake}, or null. */
    public String handshake() {
        return annotations.get(HamiAnnotations.NODE_HANDSHAKE);
    }

    /** {@code hami.io/mutex.lock}, or null when the node is not locked. */
    public String lock() {
        return annotations.get(HamiAnnotations.NODE_LOCK);
    }
}
