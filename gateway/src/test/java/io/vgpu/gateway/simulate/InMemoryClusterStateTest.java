package io.vgpu.gateway.simulate;

import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.DeviceUsage;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.NodeView;
import io.vgpu.state.model.PodAllocation;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class InMemoryClusterStateTest {

    private static final GpuDevice CARD = new GpuDevice("g0", 0, 10, 8000, 100, "NVIDIA A100", 0, "hami-core",
            List.of(), true);

    private static PodAllocation slice(int mem) {
        return new PodAllocation(List.of(List.of(new ContainerDevice(0, "g0", "NVIDIA", mem, 0))), 0);
    }

    private static InMemoryClusterState oneNode() {
        InMemoryClusterState state = new InMemoryClusterState();
        state.registerNode(new NodeView("n1", List.of(DeviceUsage.idle(CARD)), Map.of(), Map.of()));
        return state;
    }

    @Test
    void reservationsNeverOvercommitACard() {
        InMemoryClusterState state = oneNode();
        assertThat(state.reserve("n1", "a", slice(5000), 0, 1).toCompletableFuture().join()).isTrue();
        assertThat(state.reserve("n1", "b", slice(5000), 0, 1).toCompletableFuture().join()).isFalse();
        assertThat(state.reserve("n1", "c", slice(3000), 0, 1).toCompletableFuture().join()).isTrue();
        assertThat(state.node("n1").devices().get(0).usedmem()).isEqualTo(8000);
    }

    @Test
    void reReservingTheSamePodReplacesItsOwnChargeAndReleaseIsIdempotent() {
        InMemoryClusterState state = oneNode();
        state.reserve("n1", "a", slice(6000), 0, 1);
        assertThat(state.reserve("n1", "a", slice(7000), 0, 1).toCompletableFuture().join()).isTrue();
        assertThat(state.node("n1").devices().get(0).usedmem()).isEqualTo(7000);
        state.release("n1", "a");
        state.release("n1", "a");
        assertThat(state.node("n1").devices().get(0).used()).isZero();
    }

    @Test
    void refusedReReservationKeepsThePreviousCharge() {
        InMemoryClusterState state = oneNode();
        state.reserve("n1", "a", slice(2000), 0, 1);
        assertThat(state.reserve("n1", "a", slice(9000), 0, 1).toCompletableFuture().join()).isFalse();
        assertThat(state.podsOn("n1")).containsOnlyKeys("a");
        assertThat(state.node("n1").devices().get(0).usedmem()).isEqualTo(2000);
    }

    @Test
    void unknownNodeRefuses() {
        assertThat(new InMemoryClusterState().reserve("nope", "a", slice(1), 0, 1).toCompletableFuture().join())
                .isFalse();
    }

    @Test
    void fragmentationCountsFreeMemoryThatTheReferenceRequestCannotUse() {
        InMemoryClusterState state = oneNode();
        state.registerNode(new NodeView("n2", List.of(DeviceUsage.idle(CARD)), Map.of(), Map.of()));
        state.reserve("n1", "a", slice(6000), 0, 1);
        // n1 has 2000 free (cannot fit 4096), n2 has 8000 free (can): 2000 / 10000
        assertThat(Fragmentation.of(state.nodes(), 4096)).isEqualTo(0.2);
        assertThat(Fragmentation.of(List.of(), 4096)).isZero();
    }
}
