package io.vgpu.gateway.scheduling;

import io.vertx.core.Future;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
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
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;

import static io.vgpu.gateway.scheduling.FilterFixtures.filter;
import static io.vgpu.gateway.scheduling.FilterFixtures.pod;
import static io.vgpu.gateway.scheduling.FilterFixtures.quotaBook;
import static io.vgpu.gateway.scheduling.FilterFixtures.stateWith;
import static io.vgpu.gateway.testflow.TestFlow.finish;
import static io.vgpu.gateway.testflow.TestFlow.step;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pod whose bind confirmed its reservation and was then interrupted (its replica died before the Binding) is
 * filtered again: the binding keeps the devices it was admitted with, and the pod is annotated with those even when
 * the new decision prefers another card. Annotating the new choice would let ingest move the charge there without
 * the capacity rule (found by the chaos soak as an over-committed card after a kill).
 */
@ExtendWith(VertxExtension.class)
class FilterServiceInterruptedBindTest {

    private final AcceptingPodWriter recording = new AcceptingPodWriter();

    private static GpuDevice card(String uuid, int index) {
        return FilterFixtures.card(uuid, index, 24_000, "NVIDIA A10");
    }

    @Test
    void theRefilteredPodIsAnnotatedWithTheDevicesItsBindingHoldsNotWithTheNewChoice(VertxTestContext ctx) {
        InMemoryClusterState state = stateWith(card("GPU-a", 0), card("GPU-b", 1));
        FilterService service = FilterFixtures.service(state, quotaBook(), recording, EventSink.NONE);
        PodSpec a = pod("a", 4000);
        String[] held = new String[1];
        Future<ExtenderFilterResult> again = filter(service, a).compose(first -> {
            assertThat(first.nodeNames()).containsExactly("node1");
            held[0] = usedCard(state);
            // the bind confirmed the reservation, then its replica died before the Binding
            return step(state.confirm("node1", new PodRef(FilterFixtures.uidOf("a"), "team", "a"), null,
                    System.currentTimeMillis()));
        }).compose(confirmed -> {
            assertThat(confirmed).isInstanceOf(ConfirmOutcome.Confirmed.class);
            // meanwhile the card it holds filled up: a fresh decision for the pod would choose the other card
            PodAllocation filler = new PodAllocation(List.of(List.of(new ContainerDevice(0, held[0], "NVIDIA A10",
                    18_000, 0))), 0);
            long now = System.currentTimeMillis();
            return step(state.reserve("node1", new PodRef(FilterFixtures.uidOf("f"), "team", "f"), filler, now,
                    now + 60_000));
        }).compose(reserved -> {
            assertThat(reserved).isInstanceOf(ReserveOutcome.Reserved.class);
            return filter(service, a);
        });

        finish(ctx, again, result -> {
            String other = held[0].equals("GPU-a") ? "GPU-b" : "GPU-a";
            assertThat(result.nodeNames()).containsExactly("node1");
            assertThat(recording.lastFilterAnnotations().get(HamiAnnotations.DEVICES_ALLOCATED))
                    .startsWith(held[0] + ",NVIDIA,4000,")
                    .doesNotContain(other);
            assertThat(memoryOn(state, held[0])).isEqualTo(22_000);
            assertThat(memoryOn(state, other)).as("nothing charged on the card the new decision preferred").isZero();
        });
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
