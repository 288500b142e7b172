package io.vgpu.deviceplugin.mig;

import io.vgpu.deviceplugin.core.mig.MigKey;
import io.vgpu.deviceplugin.core.outcome.Outcome;
import io.vgpu.deviceplugin.core.cluster.PodView;
import io.vgpu.deviceplugin.core.mig.RealizedMig;
import io.vgpu.deviceplugin.testing.PodFixtures;
import io.vgpu.hamicore.GpuInstance;
import io.vgpu.hamicore.InstancePlacement;
import io.vgpu.hamicore.MigMode;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.MigAllocationsCodec;
import io.vgpu.state.model.MigAllocation;
import io.vgpu.state.model.MigPlacement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class MigManagerTest {

    @TempDir
    Path dir;
    private final MigFixtures node = new MigFixtures(3);
    private MigManager manager;

    @AfterEach
    void close() {
        if (manager != null) {
            manager.close();
        }
    }

    private MigManager started(List<PodView> pods) {
        manager = node.manager(dir);
        manager.startUp(Optional.of(pods)).toCompletableFuture().join();
        return manager;
    }

    private static PodView podReserving(String name, MigAllocation... allocations) {
        return PodFixtures.pod(name).phase("Running")
                .annotation(HamiAnnotations.MIG_ALLOCATIONS, MigAllocationsCodec.encode(List.of(allocations))).build();
    }

    private int instanceAt(int gpu, int profileId, int start, int size) {
        node.nvml.setMigMode(gpu, true);
        int gi = node.nvml.createGpuInstance(gpu, profileId, new InstancePlacement(start, size));
        node.nvml.createComputeInstance(gpu, gi, 0);
        return gi;
    }

    @Test
    void startUpResetsIdleGpusAndLeavesReservedAndBusyOnesAsTheyAre() {
        instanceAt(0, 19, 3, 1);                              // a stale instance on an idle GPU
        instanceAt(1, 19, 3, 1);                              // GPU 1 runs a process
        node.nvml.setRunningProcesses(1, 1);
        instanceAt(2, 19, 3, 1);                              // GPU 2 is reserved by a live pod
        PodView reserving = podReserving("p", MigAllocation.reserved(0, 0, MigFixtures.uuid(2), "1g.5gb", new MigPlacement(6, 1)));
        manager = node.manager(dir);

        MigManager.StartReport report = manager.startUp(Optional.of(List.of(reserving))).toCompletableFuture().join();

        assertThat(report.reset()).containsExactly(MigFixtures.uuid(0));
        assertThat(report.kept()).containsExactly(MigFixtures.uuid(1), MigFixtures.uuid(2));
        assertThat(node.nvml.gpuInstances(0)).isEmpty();
        assertThat(node.nvml.migMode(0)).isEqualTo(new MigMode(true, true));
        assertThat(node.nvml.gpuInstances(1)).hasSize(1);
        assertThat(node.nvml.gpuInstances(2)).hasSize(1);
        assertThat(manager.capabilities().get(MigFixtures.uuid(0)).profiles()).extracting(p -> p.name())
                .containsExactly("1g.5gb", "2g.10gb", "3g.20gb", "7g.40gb");
        assertThat(Files.exists(dir.resolve("tmp/hami/hami-mig-apply.lock"))).as("the apply lock is gone again").isFalse();
    }

    @Test
    void withoutThePodListNoGpuIsReset() {
        instanceAt(0, 19, 3, 1);
        manager = node.manager(dir);

        MigManager.StartReport report = manager.startUp(Optional.empty()).toCompletableFuture().join();

        assertThat(report.reset()).isEmpty();
        assertThat(node.nvml.gpuInstances(0)).hasSize(1);
    }

    @Test
    void recordedInstancesAreAdoptedAndReclaimedOnlyOnceNoLivePodReservesThem() {
        int gi = instanceAt(0, 19, 6, 1);
        String migUuid = node.nvml.migDevices(0).get(0).uuid();
        MigAllocation recorded = MigAllocation.reserved(0, 0, MigFixtures.uuid(0), "1g.5gb", new MigPlacement(6, 1))
                .withRuntime(migUuid, gi, 0);
        MigAllocation wrong = MigAllocation.reserved(0, 1, MigFixtures.uuid(0), "1g.5gb", new MigPlacement(5, 1))
                .withRuntime("MIG-not-there", 9, 0);
        MigManager.StartReport report = node.manager(dir).startUp(Optional.of(List.of(podReserving("p", recorded, wrong))))
                .toCompletableFuture().join();
        assertThat(report.adopted()).isEqualTo(1);
        assertThat(report.problems()).singleElement().asString().contains("MIG-not-there").contains("not live");

        manager = node.manager(dir);
        manager.startUp(Optional.of(List.of(podReserving("p", recorded)))).toCompletableFuture().join();
        assertThat(manager.managed().toCompletableFuture().join()).containsExactly(
                new RealizedMig(MigKey.of(recorded), gi, 0, migUuid, false));

        long epoch = manager.epoch();
        assertThat(manager.reconcile(Set.of(MigKey.of(recorded)), epoch).toCompletableFuture().join()).isEmpty();
        assertThat(node.nvml.gpuInstances(0)).hasSize(1);
        assertThat(manager.reconcile(Set.of(), epoch).toCompletableFuture().join()).containsExactly(MigKey.of(recorded));
        assertThat(node.nvml.gpuInstances(0)).isEmpty();
    }

    @Test
    void realizingIsExactAllOrNothingAndIdempotentPerReservation() {
        started(List.of());
        MigKey small = MigFixtures.key(0, "1g.5gb", 6, 1);
        MigKey twoSlices = MigFixtures.key(0, "2g.10gb", 0, 2);

        RealizedMig first = manager.realize(List.of(small)).toCompletableFuture().join().value().get(0);
        assertThat(first.created()).isTrue();
        assertThat(node.nvml.gpuInstances(0)).extracting(GpuInstance::placement).containsExactly(new InstancePlacement(6, 1));
        RealizedMig again = manager.realize(List.of(small)).toCompletableFuture().join().value().get(0);
        assertThat(again).isEqualTo(new RealizedMig(small, first.gpuInstanceId(), first.computeInstanceId(), first.migUuid(), false));

        // slices 0-1 are taken by something this node does not manage: the whole request fails and the
        // instance it had created for 2g.10gb at 2-3 is destroyed again
        node.nvml.createGpuInstance(0, 14, new InstancePlacement(0, 2));
        Outcome<List<RealizedMig>> failed = manager.realize(List.of(MigFixtures.key(0, "2g.10gb", 2, 2), twoSlices))
                .toCompletableFuture().join();
        assertThat(failed.isOk()).isFalse();
        assertThat(failed.error()).contains("cannot create MIG " + twoSlices).contains("INSUFFICIENT_RESOURCES");
        assertThat(node.nvml.gpuInstances(0)).extracting(GpuInstance::placement)
                .containsExactlyInAnyOrder(new InstancePlacement(6, 1), new InstancePlacement(0, 2));
        assertThat(manager.managed().toCompletableFuture().join()).extracting(RealizedMig::key).containsExactly(small);
    }

    @Test
    void reservationsThisNodeCannotHonourAreRefusedWithTheReason() {
        started(List.of());
        assertThat(manager.realize(List.of(MigFixtures.key(0, "1g.5gb", 6, 2))).toCompletableFuture().join().error())
                .contains("placement MigPlacement[start=6, size=2] that profile 1g.5gb cannot take");
        assertThat(manager.realize(List.of(MigFixtures.key(0, "4g.20gb", 0, 4))).toCompletableFuture().join().error())
                .contains("MIG profile 4g.20gb is not offered");
        assertThat(manager.realize(List.of(new MigKey("GPU-other", "1g.5gb", new MigPlacement(6, 1))))
                .toCompletableFuture().join().error()).contains("GPU-other is not a dynamic-MIG GPU of this node");
    }

    @Test
    void anEnableThatStaysPendingIsAClearFailure() {
        node.nvml.setRunningProcesses(0, 1);                  // busy at start: left with MIG off
        started(List.of());
        node.nvml.setMigEnableNeedsReset(0, true);

        assertThat(manager.realize(List.of(MigFixtures.key(0, "1g.5gb", 6, 1))).toCompletableFuture().join().error())
                .contains("MIG mode enable is pending; the GPU needs a reset");
    }

    @Test
    void aReconcileNeverReclaimsWhatWasCreatedAfterTheEpochItWasGiven() {
        started(List.of());
        long before = manager.epoch();
        MigKey key = MigFixtures.key(1, "7g.40gb", 0, 8);
        manager.realize(List.of(key)).toCompletableFuture().join();

        assertThat(manager.reconcile(Set.of(), before).toCompletableFuture().join()).isEmpty();
        assertThat(manager.reconcile(Set.of(), manager.epoch()).toCompletableFuture().join()).containsExactly(key);
        assertThat(node.nvml.gpuInstances(1)).isEmpty();
    }
}
