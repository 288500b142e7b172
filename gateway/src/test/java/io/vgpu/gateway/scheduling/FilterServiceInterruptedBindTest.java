package io.vgpu.gateway.scheduling;

import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.port.EventSink;
import io.vgpu.gateway.extender.ExtenderFilterResult;
import io.vgpu.gateway.testing.InMemoryClusterState;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.model.ConfirmOutcome;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.DeviceUsage;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodRef;
import io.vgpu.state.model.ReserveOutcome;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.vgpu.gateway.scheduling.FilterFixtures.filter;
import static io.vgpu.gateway.scheduling.FilterFixtures.pod;
import static io.vgpu.gateway.scheduling.FilterFixtures.quotaBook;
import static io.vgpu.gateway.scheduling.FilterFixtures.stateWith;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pod whose bind confirmed its reservation and was then interrupted (its replica died before the Binding) is
 * filtered again: the binding keeps the devices it was admitted with, and the pod is annotated with those even when
 * the new decision prefers another card. Annotating the new choice would let ingest move the charge there without
 * the capacity rule (found by the chaos soak as an over-committed card after a kill).
 */
class FilterServiceInterruptedBindTest {

    private final AcceptingPodWriter recording = new AcceptingPodWriter();

    private static GpuDevice card(String uuid, int index) {
        return FilterFixtures.card(uuid, index, 24_000, "NVIDIA A10");
    }

    @Test
    void theRefilteredPodIsAnnotatedWithTheDevicesItsBindingHoldsNotWithTheNewChoice() throws Exception {
        InMemoryClusterState state = stateWith(card("GPU-a", 0), card("GPU-b", 1));
        FilterService service = FilterFixtures.service(state, quotaBook(), recording, EventSink.NONE);
        PodSpec a = pod("a", 4000);
        assertThat(filter(service, a).nodeNames()).containsExactly("node1");
        String held = usedCard(state);
        String other = held.equals("GPU-a") ? "GPU-b" : "GPU-a";
        // the bind confirmed the reservation, then its replica died before the Binding
        assertThat(state.confirm("node1", new PodRef(FilterFixtures.uidOf("a"), "team", "a"), null, System.currentTimeMillis())
                .toCompletableFuture().get()).isInstanceOf(ConfirmOutcome.Confirmed.class);
        // meanwhile the card it holds filled up: a fresh decision for the pod would choose the other card
        PodAllocation filler = new PodAllocation(List.of(List.of(new ContainerDevice(0, held, "NVIDIA A10", 18_000,
                0))), 0);
        long now = System.currentTimeMillis();
        assertThat(state.reserve("node1", new PodRef(FilterFixtures.uidOf("f"), "team", "f"), filler, now, now + 60_000)
                .toCompletableFuture().get()).isInstanceOf(ReserveOutcome.Reserved.class);

        ExtenderFilterResult again = filter(service, a);

        assertThat(again.nodeNames()).containsExactly("node1");
        assertThat(recording.lastFilterAnnotations().get(HamiAnnotations.DEVICES_ALLOCATED))
                .startsWith(held + ",NVIDIA,4000,")
                .doesNotContain(other);
        assertThat(memoryOn(state, held)).isEqualTo(22_000);
        assertThat(memoryOn(state, other)).as("nothing charged on the card the new decision preferred").isZero();
    }

    private static String usedCard(InMemoryClusterState state) {
        return state.node("node1").devices().stream().filter(d -> d.usedmem() > 0).findFirst()
                .map(DeviceUsage::id).orElseThrow();
    }

    private static int memoryOn(InMemoryClusterState state, String uuid) {
        return state.node("node1").devices().stream().filter(d -> d.id().equals(uuid)).findFirst()
                .map(DeviceUsage::usedmem).orElseThrow();
    }
}
