package io.vgpu.gateway.core.filter;

import io.vgpu.state.model.NodeView;

import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Where a filter reads node views, and, when the source keeps one, its log of changed views
 * ({@link io.vgpu.state.model.ViewChanges}): with the log a filter redoes only the nodes changed since the last call
 * of the pod's shape ({@link RankState}); without it, every node.
 */
public interface ViewSource {

    /** The view of {@code name}, or null for a node without registered GPUs. */
    NodeView node(String name);

    /** A mark taken before the views about to be read; negative when no log is kept. */
    long mark();

    /**
     * Hands every node whose view changed since {@code mark} to {@code changed}; false when not known (then any view
     * may have changed).
     */
    boolean changedSince(long mark, Consumer<String> changed);

    /** A source without a log: every call reads every node. */
    static ViewSource of(Function<String, NodeView> nodes) {
        return new ViewSource() {
            @Override
            public NodeView node(String name) {
                return nodes.apply(name);
            }

            @Override
            public long mark() {
                return -1;
            }

            @Override
            public boolean changedSince(long mark, Consumer<String> changed) {
                return false;
            }
        };
    }
}
