package io.vgpu.gateway.scheduling;

import io.vgpu.gateway.testing.InMemoryClusterState;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodRef;
import io.vgpu.state.model.fixtures.GpuFixtures;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Ingest's "charged as bound" line says what the owner's copy held for the pod before the write. */
class ChargeMovesHeldTest {

    private static final String NODE = "node-a";
    private static final PodRef POD = new PodRef("uid-p", "ns", "p");
    private static final PodAllocation ON_CARD_0 = share(0, "GPU-0");
    private static final PodAllocation ON_CARD_1 = share(1, "GPU-1");

    private final InMemoryClusterState state = new InMemoryClusterState();

    @BeforeEach
    void registerNode() {
        state.registerNode(GpuFixtures.node(NODE, GpuFixtures.card("GPU-0").memMiB(32768).build(),
                GpuFixtures.card("GPU-1").memMiB(32768).build()));
    }

    @Test
    void namesAMissingNodeStateAndAMissingCharge() {
        assertThat(ChargeMoves.held(state.nodeState("node-z"), POD.uid(), ON_CARD_0))
                .isEqualTo("no state of the node here (not registered, or not owned by this replica)");
        assertThat(ChargeMoves.held(state.nodeState(NODE), POD.uid(), ON_CARD_0)).isEqualTo("no charge of the pod");
    }

    @Test
    void namesAReservationOfTheSameOrOtherDevices() {
        state.reserve(NODE, POD, ON_CARD_1, 0, 60_000);
        assertThat(ChargeMoves.held(state.nodeState(NODE), POD.uid(), ON_CARD_1))
                .isEqualTo("a reservation of the same devices");
        assertThat(ChargeMoves.held(state.nodeState(NODE), POD.uid(), ON_CARD_0))
                .startsWith("a reservation of other devices (").contains("GPU-1");
    }

    @Test
    void namesABindingOnOtherDevices() {
        state.observeBound(NODE, POD, ON_CARD_1);
        assertThat(ChargeMoves.held(state.nodeState(NODE), POD.uid(), ON_CARD_1)).isEqualTo("the same Bound charge");
        assertThat(ChargeMoves.held(state.nodeState(NODE), POD.uid(), ON_CARD_0))
                .startsWith("a Bound charge on other devices (").contains("GPU-1");
    }

    private static PodAllocation share(int index, String uuid) {
        return new PodAllocation(List.of(List.of(new ContainerDevice(index, uuid, "NVIDIA", 1000, 10))), 0);
    }
}
