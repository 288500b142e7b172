package io.vgpu.deviceplugin.core.allocate;
import io.vgpu.deviceplugin.core.outcome.Outcome;
import io.vgpu.deviceplugin.core.mig.RealizedMig;
import io.vgpu.deviceplugin.core.mig.MigKey;
import io.vgpu.deviceplugin.core.cluster.ContainerView;
import io.vgpu.deviceplugin.core.cluster.PodView;

import io.vgpu.deviceplugin.testing.PodFixtures;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.MigAllocationsCodec;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.MigAllocation;
import io.vgpu.state.model.MigPlacement;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class MigReservationsTest {

    private static final MigAllocation A = MigAllocation.reserved(1, 0, "GPU-a", "1g.5gb", new MigPlacement(6, 1));
    private static final MigAllocation B = MigAllocation.reserved(1, 1, "GPU-b", "2g.10gb", new MigPlacement(0, 2));
    private static final MigAllocation OTHER = MigAllocation.reserved(0, 0, "GPU-a", "1g.5gb", new MigPlacement(5, 1));

    private static ContainerTake take(int entry, String... gpus) {
        return new ContainerTake(entry, ContainerView.named("main"),
                java.util.Arrays.stream(gpus).map(g -> new ContainerDevice(0, g, "NVIDIA", 4864, 15)).toList());
    }

    private static PodView pod(String name, String phase, List<MigAllocation> reservations) {
        return PodFixtures.pod(name).phase(phase)
                .annotation(HamiAnnotations.MIG_ALLOCATIONS, MigAllocationsCodec.encode(reservations)).build();
    }

    @Test
    void aContainerGetsItsReservationsInDeviceOrder() {
        assertThat(MigReservations.forContainer(List.of(B, OTHER, A), take(1, "GPU-a", "GPU-b")).value()).containsExactly(A, B);
    }

    @Test
    void aDeviceWithoutReservationOrOnAnotherGpuIsRefused() {
        assertThat(MigReservations.forContainer(List.of(A), take(1, "GPU-a", "GPU-b")).error())
                .contains("no MIG reservation for device 1 (GPU-b) of container main");
        assertThat(MigReservations.forContainer(List.of(A, B), take(1, "GPU-a", "GPU-c")).error())
                .contains("device 1 (GPU-c)");
        assertThat(MigReservations.forContainer(List.of(A, B), take(1, "GPU-a")).error())
                .contains("reserves 2 MIG devices for container main, which was assigned 1 GPUs");
        assertThat(MigReservations.forContainer(List.of(), take(0, "GPU-a")).isOk()).isFalse();
    }

    @Test
    void onlyLivePodsReserveAndOneUnreadableAnnotationStopsReclaiming() {
        PodView running = pod("running", "Running", List.of(A));
        PodView done = pod("done", "Succeeded", List.of(B));
        PodView deleting = new PodView("default", "deleting", "u", "Running", "node-1",
                Map.of(HamiAnnotations.MIG_ALLOCATIONS, MigAllocationsCodec.encode(List.of(OTHER))), List.of(),
                List.of(ContainerView.named("main")), "7", true);

        assertThat(MigReservations.reservedBy(List.of(running, done, deleting)).value()).isEqualTo(Set.of(MigKey.of(A)));

        PodView broken = PodFixtures.pod("broken").annotation(HamiAnnotations.MIG_ALLOCATIONS, "[{\"containerIndex\":").build();
        Outcome<Set<MigKey>> reserved = MigReservations.reservedBy(List.of(running, broken));
        assertThat(reserved.isOk()).isFalse();
        assertThat(reserved.error()).contains("default/broken");
        assertThat(MigReservations.liveReservations(List.of(running, broken, done))).containsExactly(A);
    }

    @Test
    void recordingFillsTheRuntimeIdentityOfTheServedReservationsOnly() {
        RealizedMig realized = new RealizedMig(MigKey.of(A), 3, 0, "MIG-1", true);

        List<MigAllocation> recorded = MigReservations.record(List.of(OTHER, A), Map.of(List.of(1, 0), realized));

        assertThat(recorded).containsExactly(OTHER, A.withRuntime("MIG-1", 3, 0));
    }
}
