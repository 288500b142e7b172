package io.vgpu.simulate;

import io.vgpu.gateway.testing.InMemoryClusterState;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.NodeInventory;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodRef;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.vgpu.state.model.fixtures.GpuFixtures.card;
import static org.assertj.core.api.Assertions.assertThat;

class FragmentationTest {

    private static final GpuDevice CARD = card("g0").memMiB(8000).type("NVIDIA A100").build();

    @Test
    void countsFreeMemoryThatTheReferenceRequestCannotUse() {
        InMemoryClusterState state = new InMemoryClusterState();
        for (String name : List.of("n1", "n2")) {
            // the in-memory state answers at once
            assertThat(state.registerNode(new NodeInventory(name, List.of(CARD), Map.of(), Map.of()))).isCompleted();
        }
        PodAllocation slice = new PodAllocation(List.of(List.of(new ContainerDevice(0, "g0", "NVIDIA", 6000, 0))), 0);
        assertThat(state.reserve("n1", new PodRef("a", "ns", "pod-a"), slice, 0, 10)).isCompleted();
        // n1 has 2000 free (cannot fit 4096), n2 has 8000 free (can): 2000 / 10000
        assertThat(Fragmentation.of(state.nodes(), 4096)).isEqualTo(0.2);
        assertThat(Fragmentation.of(List.of(), 4096)).isZero();
    }
}
