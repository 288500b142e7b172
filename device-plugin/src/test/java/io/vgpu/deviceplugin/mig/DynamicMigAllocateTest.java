package io.vgpu.deviceplugin.mig;

import io.vgpu.deviceplugin.core.allocate.AllocatePlanner;
import io.vgpu.deviceplugin.core.allocate.AllocateResult;
import io.vgpu.deviceplugin.core.allocate.AllocateSettings;
import io.vgpu.deviceplugin.core.allocate.AllocationService;
import io.vgpu.deviceplugin.core.allocate.CdiSettings;
import io.vgpu.deviceplugin.core.allocate.DeviceIdStrategy;
import io.vgpu.deviceplugin.core.advertise.DeviceInventory;
import io.vgpu.deviceplugin.core.allocate.DeviceListStrategy;
import io.vgpu.deviceplugin.core.hook.HookFiles;
import io.vgpu.deviceplugin.core.pending.NodeLockReleaser;
import io.vgpu.deviceplugin.core.cluster.PodView;
import io.vgpu.deviceplugin.testing.FakeCluster;
import io.vgpu.deviceplugin.testing.FakeHostFiles;
import io.vgpu.deviceplugin.testing.PodFixtures;
import io.vgpu.hamicore.GpuInstance;
import io.vgpu.hamicore.InstancePlacement;
import io.vgpu.hamicore.MigDevice;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.MigAllocationsCodec;
import io.vgpu.state.model.MigAllocation;
import io.vgpu.state.model.MigPlacement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code Allocate} in dynamic-MIG mode over the shipped pieces: the planner, the allocation service, the
 * MIG manager and hamicore's FakeNvml; the pod carries what the scheduler writes (HAMi or ours).
 */
class DynamicMigAllocateTest {

    private static final String NODE = "node-1";
    private static final String GPU = MigFixtures.uuid(0);

    @TempDir
    Path dir;
    private final MigFixtures node = new MigFixtures(1);
    private final FakeCluster cluster = new FakeCluster();
    private final FakeHostFiles host = new FakeHostFiles(HookFiles.none());
    private MigManager manager;
    private AllocationService service;

    @BeforeEach
    void start() {
        manager = node.manager(dir);
        manager.startUp(Optional.of(List.of())).toCompletableFuture().join();
        AllocateSettings settings = new AllocateSettings("nvidia.com/gpu", "/usr/local", 1, "1", false, DeviceIdStrategy.UUID,
                List.of(DeviceListStrategy.ENVVAR), false, "mig", "", false, CdiSettings.defaults(), List.of(), false, false, false);
        service = new AllocationService(NODE, cluster, host, new AllocatePlanner(settings, UUID::randomUUID),
                DeviceInventory::empty, new NodeLockReleaser(cluster, 5, Duration.ZERO), manager);
        cluster.node(NODE, Map.of(HamiAnnotations.NODE_LOCK, "2026-01-01T00:00:00Z,default,job"));
    }

    @AfterEach
    void stop() {
        manager.close();
    }

    private static MigAllocation reserved(int container, int device, String profile, int start, int size) {
        return MigAllocation.reserved(container, device, GPU, profile, new MigPlacement(start, size));
    }

    private void pod(String toAllocate, MigAllocation... reservations) {
        int containers = toAllocate.split(";", -1).length - 1;
        PodFixtures pod = PodFixtures.pod("job").bound("allocating").toAllocate(toAllocate);
        for (int i = 0; i < containers; i++) {
            pod.container("c" + i);
        }
        if (reservations.length > 0) {
            pod.annotation(HamiAnnotations.MIG_ALLOCATIONS, MigAllocationsCodec.encode(List.of(reservations)));
        }
        cluster.pod(pod.build());
    }

    private AllocateResult allocate(String... ids) {
        return service.allocate(List.of(List.of(ids))).toCompletableFuture().join();
    }

    private PodView current() {
        return cluster.currentPod("default", "job").orElseThrow();
    }

    @Test
    void createsExactlyTheReservedInstanceAndAnswersWithItsMigDevice() {
        pod(GPU + ",NVIDIA,4864,15:;", reserved(0, 0, "1g.5gb", 6, 1));

        AllocateResult result = allocate(GPU + "-0");

        assertThat(node.nvml.gpuInstances(0)).singleElement().satisfies(gi -> {
            assertThat(gi.placement()).isEqualTo(new InstancePlacement(6, 1));
            assertThat(gi.profileId()).as("NVML's id of 1g.5gb").isEqualTo(19);
        });
        MigDevice device = node.nvml.migDevices(0).get(0);
        assertThat(result).isInstanceOfSatisfying(AllocateResult.Allocated.class, ok ->
                assertThat(ok.responses()).singleElement().satisfies(r -> {
                    assertThat(r.envs()).containsExactly(Map.entry("NVIDIA_VISIBLE_DEVICES", device.uuid()));
                    assertThat(r.mounts()).as("no HAMi-core in MIG mode").isEmpty();
                }));
        assertThat(MigAllocationsCodec.decode(current().annotation(HamiAnnotations.MIG_ALLOCATIONS)).value())
                .containsExactly(reserved(0, 0, "1g.5gb", 6, 1)
                        .withRuntime(device.uuid(), device.gpuInstanceId(), device.computeInstanceId()));
        assertThat(current().annotations()).containsEntry(HamiAnnotations.DEVICES_TO_ALLOCATE, ";;")
                .containsEntry(HamiAnnotations.BIND_PHASE, "success");
        assertThat(cluster.lockRemovals()).containsExactly(NODE);
        assertThat(host.recreated()).isEmpty();
    }

    @Test
    void theSecondContainerGetsItsOwnInstanceAndTheFirstKeepsItsRecord() {
        pod(GPU + ",NVIDIA,4864,15:;" + GPU + ",NVIDIA,9984,29:;", reserved(0, 0, "1g.5gb", 6, 1),
                reserved(1, 0, "2g.10gb", 0, 2));

        assertThat(allocate(GPU + "-0")).isInstanceOf(AllocateResult.Allocated.class);
        assertThat(current().annotation(HamiAnnotations.BIND_PHASE)).isEqualTo("allocating");
        assertThat(allocate(GPU + "-1")).isInstanceOf(AllocateResult.Allocated.class);

        List<MigAllocation> recorded = MigAllocationsCodec.decode(current().annotation(HamiAnnotations.MIG_ALLOCATIONS)).value();
        assertThat(recorded).allSatisfy(a -> assertThat(a.realized()).isTrue());
        assertThat(recorded).extracting(MigAllocation::migUuid).doesNotHaveDuplicates();
        assertThat(node.nvml.gpuInstances(0)).extracting(GpuInstance::placement)
                .containsExactlyInAnyOrder(new InstancePlacement(6, 1), new InstancePlacement(0, 2));
        assertThat(current().annotation(HamiAnnotations.BIND_PHASE)).isEqualTo("success");
    }

    @Test
    void aFailureHalfwayDestroysWhatThisCallCreatedAndFailsThePod() {
        node.nvml.createGpuInstance(0, 14, new InstancePlacement(0, 2));   // slices 0-1 already taken
        pod(GPU + ",NVIDIA,4864,15:" + GPU + ",NVIDIA,9984,29:;", reserved(0, 0, "1g.5gb", 6, 1),
                reserved(0, 1, "2g.10gb", 0, 2));

        AllocateResult result = allocate(GPU + "-0", GPU + "-1");

        assertThat(result).isInstanceOfSatisfying(AllocateResult.Rejected.class,
                r -> assertThat(r.message()).contains("2g.10gb@0+2").contains("INSUFFICIENT_RESOURCES"));
        assertThat(node.nvml.gpuInstances(0)).extracting(GpuInstance::placement)
                .as("the 1g.5gb instance of this call is gone, the foreign one untouched")
                .containsExactly(new InstancePlacement(0, 2));
        assertThat(current().annotations()).containsEntry(HamiAnnotations.BIND_PHASE, "failed")
                .doesNotContainEntry(HamiAnnotations.DEVICES_TO_ALLOCATE, ";;");
        assertThat(cluster.lockRemovals()).containsExactly(NODE);
    }

    @Test
    void whenTheRecordCannotBeWrittenTheNewInstancesAreDestroyed() {
        pod(GPU + ",NVIDIA,4864,15:;", reserved(0, 0, "1g.5gb", 6, 1));
        cluster.failPodPatchesOf(HamiAnnotations.MIG_ALLOCATIONS, "etcd unavailable");

        AllocateResult result = allocate(GPU + "-0");

        assertThat(result).isInstanceOfSatisfying(AllocateResult.Rejected.class,
                r -> assertThat(r.message()).contains("cannot record the MIG instances").contains("etcd unavailable"));
        assertThat(node.nvml.gpuInstances(0)).isEmpty();
        assertThat(manager.managed().toCompletableFuture().join()).isEmpty();
    }

    @Test
    void aContainerWithoutReservationIsRefusedAndNothingIsCreated() {
        pod(GPU + ",NVIDIA,4864,15:;");

        AllocateResult result = allocate(GPU + "-0");

        assertThat(result).isInstanceOfSatisfying(AllocateResult.Rejected.class,
                r -> assertThat(r.message()).contains("no MIG reservation for device 0"));
        assertThat(node.nvml.gpuInstances(0)).isEmpty();
        assertThat(current().annotation(HamiAnnotations.BIND_PHASE)).isEqualTo("failed");
    }
}
