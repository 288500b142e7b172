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
     * @param reason why, for logs and Events
     */
    public record Left(String uuid, String reason) {
    }
}
