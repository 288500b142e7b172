package io.vgpu.state.dra;

import java.util.List;
import java.util.Objects;

/**
 * What {@link SliceBuilder#build} made of a node.
 *
 * @param content the slice content (pool generation 1)
 * @param left    the GPUs not published, with why
 */
public record SliceBuild(SliceContent content, List<Left> left) {

    /** Copies the list. */
    public SliceBuild {
        Objects.requireNonNull(content, "content");
        left = List.copyOf(left);
    }

    /**
     * A GPU left out of the slice.
     *
     * @param uuid   the GPU
     * @param cause  why, as a fixed code (a metric label)
     * @param reason why, for logs and Events
     */
    public record Left(String uuid, Cause cause, String reason) {

        /** Checks for nulls. */
        public Left {
            Objects.requireNonNull(uuid, "uuid");
            Objects.requireNonNull(cause, "cause");
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** The fixed set of reasons a GPU is left out; {@link #label()} is what metrics show. */
    public enum Cause {
        /** Listed in the node config's {@code filterdevices}. */
        FILTERED("filtered"),
        /** The node serves dynamic MIG ({@code operatingmode: mig}), which DRA mode does not offer yet. */
        DYNAMIC_MIG("dynamic_mig"),
        /** No minor number, or one another GPU has: no stable device name. */
        DEVICE_NAME("device_name"),
        /** No memory to offer (NVML reports none, or scaling leaves less than 1 MiB). */
        MEMORY("memory"),
        /** {@code deviceCoreScaling} leaves no cores. */
        CORES("cores"),
        /** Cordoned or unhealthy while the API server drops device taints. */
        WITHDRAWN("withdrawn");

        private final String label;

        Cause(String label) {
            this.label = label;
        }

        /** The metric label value. */
        public String label() {
            return label;
        }
    }
}
