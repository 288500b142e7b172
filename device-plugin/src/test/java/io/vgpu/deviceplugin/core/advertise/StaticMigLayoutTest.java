package io.vgpu.deviceplugin.core.advertise;
import io.vgpu.deviceplugin.core.allocate.AllocatePlanner;
import io.vgpu.deviceplugin.core.allocate.AllocateResult;
import io.vgpu.deviceplugin.core.allocate.AllocateSettings;
import io.vgpu.deviceplugin.core.allocate.AllocationService;
import io.vgpu.deviceplugin.core.allocate.CdiSettings;
import io.vgpu.deviceplugin.core.allocate.DeviceIdStrategy;
import io.vgpu.deviceplugin.core.allocate.DeviceListStrategy;
import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.deviceplugin.core.mig.MigDeviceFacts;
import io.vgpu.deviceplugin.core.mig.MigStrategy;
import io.vgpu.deviceplugin.core.pending.NodeLockReleaser;
import io.vgpu.deviceplugin.core.hook.HookFiles;

import io.vgpu.deviceplugin.testing.FakeCluster;
import io.vgpu.deviceplugin.testing.FakeHostFiles;
import io.vgpu.deviceplugin.testing.PodFixtures;
import io.vgpu.state.codec.HamiAnnotations;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class StaticMigLayoutTest {

    private static final GpuFacts A = new GpuFacts("GPU-a", 0, "A100", OptionalLong.of(1), OptionalInt.of(1), true);
    private static final GpuFacts B = new GpuFacts("GPU-b", 1, "A100", OptionalLong.of(1), OptionalInt.of(0), true);

    private static MigDeviceFacts mig(String uuid, GpuFacts parent, String profile) {
        return new MigDeviceFacts(uuid, parent.uuid(), parent.index(), profile, parent.numa());
    }

    @Test
    void singleAdvertisesEveryMigDeviceWhenAllGpusShareOneProfile() {
        List<MigDeviceFacts> devices = List.of(mig("MIG-1", A, "1g.5gb"), mig("MIG-2", B, "1g.5gb"));

        StaticMigLayout layout = StaticMigLayout.of(MigStrategy.SINGLE, List.of(A, B), Set.of("GPU-a", "GPU-b"), devices,
                "nvidia.com").value();

        assertThat(layout.gpus()).isEmpty();
        assertThat(StaticMigLayout.physical(layout.mainMig())).containsExactly(
                new PhysicalDevice("MIG-1", 0, true, OptionalInt.of(1)), new PhysicalDevice("MIG-2", 1, true, OptionalInt.of(0)));
        assertThat(StaticMigLayout.of(MigStrategy.SINGLE, List.of(A, B), Set.of("GPU-a"), devices.subList(0, 1), "nvidia.com")
                .error()).contains("not in MIG mode: [GPU-b]");
        assertThat(StaticMigLayout.of(MigStrategy.SINGLE, List.of(A, B), Set.of("GPU-a", "GPU-b"),
                List.of(mig("MIG-1", A, "1g.5gb"), mig("MIG-2", B, "2g.10gb")), "nvidia.com").error())
                .contains("one MIG profile on every GPU, found [1g.5gb, 2g.10gb]; use mixed");
    }

    @Test
    void mixedMakesOneResourcePerProfileAndKeepsGpusWithoutMig() {
        StaticMigLayout layout = StaticMigLayout.of(MigStrategy.MIXED, List.of(A, B), Set.of("GPU-a"),
                List.of(mig("MIG-1", A, "1g.5gb"), mig("MIG-2", A, "2g.10gb"), mig("MIG-3", A, "1g.5gb")), "nvidia.com").value();

        assertThat(layout.gpus()).containsExactly("GPU-b");
        assertThat(layout.byResource()).containsOnlyKeys("nvidia.com/mig-1g.5gb", "nvidia.com/mig-2g.10gb");
        assertThat(layout.byResource().get("nvidia.com/mig-1g.5gb")).extracting(MigDeviceFacts::uuid).containsExactly("MIG-1", "MIG-3");
    }

    @Test
    void migDevicesKubeSchedulerPlacedAreAnsweredAsTheyAreWithoutAnyPod() {
        FakeCluster cluster = new FakeCluster().node("node-1", Map.of());
        AllocateSettings settings = new AllocateSettings("nvidia.com/gpu", "/usr/local", 1, "", false, DeviceIdStrategy.UUID,
                List.of(DeviceListStrategy.ENVVAR), false, "hami-core", "", false, CdiSettings.defaults(), List.of(), false, false, false);
        AllocatePlanner planner = new AllocatePlanner(settings, UUID::randomUUID);
        DeviceInventory inventory = new DeviceInventory(Set.of("MIG-1", "MIG-2"), Map.of());
        AllocationService service = new AllocationService("node-1", cluster, new FakeHostFiles(HookFiles.none()), planner,
                () -> inventory, new NodeLockReleaser(cluster, 5, Duration.ZERO));

        AllocateResult ok = service.allocate(List.of(List.of("MIG-2"))).toCompletableFuture().join();
        AllocateResult unknown = service.allocate(List.of(List.of("MIG-9"))).toCompletableFuture().join();

        assertThat(ok).isInstanceOfSatisfying(AllocateResult.Allocated.class, a -> {
            assertThat(a.pod()).isNull();
            assertThat(a.responses().get(0).envs()).containsExactly(Map.entry("NVIDIA_VISIBLE_DEVICES", "MIG-2"));
        });
        assertThat(unknown).isInstanceOfSatisfying(AllocateResult.Rejected.class,
                r -> assertThat(r.message()).isEqualTo("invalid allocation request for 'nvidia.com/gpu': unknown device: MIG-9"));
        assertThat(cluster.podPatches()).isEmpty();

        // a MIG resource of the mixed strategy never touches a HAMi pod, even one holding the node lock
        cluster.pod(PodFixtures.pod("hami-pod").bound("allocating").toAllocate("GPU-a,NVIDIA,1000,10:;").build());
        cluster.node("node-1", Map.of(HamiAnnotations.NODE_LOCK, "2026-01-01T00:00:00Z,default,hami-pod"));
        AllocationService mixed = AllocationService.passThroughOnly("node-1", cluster, new FakeHostFiles(HookFiles.none()),
                planner, () -> inventory, new NodeLockReleaser(cluster, 5, Duration.ZERO));
        assertThat(mixed.allocate(List.of(List.of("MIG-1"))).toCompletableFuture().join()).isInstanceOf(AllocateResult.Allocated.class);
        assertThat(cluster.podPatches()).isEmpty();
        assertThat(cluster.lockRemovals()).isEmpty();
    }
}
