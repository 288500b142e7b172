package io.vgpu.gateway.scheduling;

import io.vgpu.gateway.core.filter.ViewSource;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.NodeView;

import java.util.function.Consumer;

/** The shared state's local views and their log of changes, as the filter decision reads them. */
final class StateViews implements ViewSource {

    private final ClusterState state;

    StateViews(ClusterState state) {
        this.state = state;
    }

    @Override
    public NodeView node(String name) {
        return state.node(name);
    }

    @Override
    public long mark() {
        return state.viewMark();
    }

    @Override
    public boolean changedSince(long mark, Consumer<String> changed) {
        return state.viewsChangedSince(mark, changed);
    }
}
