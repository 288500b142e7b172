package io.vgpu.deviceplugin.core.allocate;
import io.vgpu.deviceplugin.core.advertise.DeviceInventory;
import io.vgpu.deviceplugin.core.pending.LockRelease;
import io.vgpu.deviceplugin.core.pending.LockReleaseResult;
import io.vgpu.deviceplugin.core.pending.NodeLockReleaser;
import io.vgpu.deviceplugin.core.pending.PodRef;
import io.vgpu.deviceplugin.core.hook.HookFiles;

import io.vgpu.deviceplugin.testing.FakeCluster;
import io.vgpu.deviceplugin.testing.FakeHostFiles;
import io.vgpu.deviceplugin.testing.PodFixtures;
import io.vgpu.state.codec.HamiAnnotations;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class AllocationServiceTest {

    private static final String NODE = "node-1";
    private static final String GPU = "GPU-aaaaaaaa-0000-0000-0000-000000000000";
    private final FakeCluster cluster = new FakeCluster();
    private final FakeHostFiles host = new FakeHostFiles(HookFiles.none());

    private AllocationService service() {
        AllocateSettings settings = new AllocateSettings("nvidia.com/gpu", "/usr/local", 1, "", false, DeviceIdStrategy.UUID,
                List.of(DeviceListStrategy.ENVVAR), false, "hami-core", "", false, CdiSettings.defaults(), List.of(), false, false, false);
        return new AllocationService(NODE, cluster, host, new AllocatePlanner(settings, UUID::randomUUID), DeviceInventory::empty,
                new NodeLockReleaser(cluster, 5, Duration.ZERO));
    }

    private AllocateResult allocate(String... ids) {
        return service().allocate(List.of(List.of(ids))).toCompletableFuture().join();
    }

    private void lock(String value) {
        cluster.node(NODE, Map.of(HamiAnnotations.NODE_LOCK, value));
    }

    @Test
    void legacyLockFallsBackToTheFirstPendingBoundPodInListOrder() {
        cluster.pod(PodFixtures.pod("running").phase("Running").bound("allocating").toAllocate(GPU + ",NVIDIA,1,1:;").build())
                .pod(PodFixtures.pod("other-node").node("node-2").bound("allocating").toAllocate(GPU + ",NVIDIA,1,1:;").build())
                .pod(PodFixtures.pod("chosen").bound("success").toAllocate(GPU + ",NVIDIA,1,1:;").build());
        lock("2026-01-01T00:00:00Z");

        AllocateResult result = allocate(GPU + "-0");

        assertThat(result).isInstanceOfSatisfying(AllocateResult.Allocated.class,
                ok -> assertThat(ok.pod()).isEqualTo(new PodRef("default", "chosen")));
        assertThat(cluster.lockRemovals()).as("a legacy lock is removed by any releaser").containsExactly(NODE);
    }

    @Test
    void failedHostPreparationFailsThePodAndReleasesItsLock() {
        cluster.pod(PodFixtures.pod("p").toAllocate(GPU + ",NVIDIA,1,1:;").build());
        lock("2026-01-01T00:00:00Z,default,p");
        host.failPrepare("read-only file system");

        AllocateResult result = allocate(GPU + "-0");

        assertThat(result).isInstanceOfSatisfying(AllocateResult.Rejected.class,
                r -> assertThat(r.message()).contains("read-only file system"));
        assertThat(cluster.currentPod("default", "p").orElseThrow().annotations()).containsEntry(HamiAnnotations.BIND_PHASE, "failed");
        assertThat(cluster.lockRemovals()).containsExactly(NODE);
    }

    @Test
    void aLockTakenOverByAnotherPodIsNeverRemoved() {
        cluster.pod(PodFixtures.pod("p").build());
        lock("2026-01-01T00:00:05Z,default,q");
        AllocationFinisher finisher = new AllocationFinisher(cluster, new NodeLockReleaser(cluster, 5, Duration.ZERO), NODE);

        FinishReport report = finisher.fail(new PodRef("default", "p")).toCompletableFuture().join();

        assertThat(report.bindPhase()).isEqualTo("failed");
        assertThat(report.lock()).isEqualTo(new LockReleaseResult.Left(LockRelease.Decision.NOT_OWNER));
        assertThat(cluster.nodeAnnotations(NODE)).containsEntry(HamiAnnotations.NODE_LOCK, "2026-01-01T00:00:05Z,default,q");
    }

    @Test
    void danglingLockOfADeletedPodIsReleasedAndNoPodIsTouched() {
        lock("2026-01-01T00:00:00Z,default,gone");

        AllocateResult result = allocate(GPU + "-0");

        assertThat(result).isInstanceOfSatisfying(AllocateResult.Rejected.class, r -> {
            assertThat(r.message()).isEqualTo("pods \"gone\" not found");
            assertThat(r.pod()).isNull();
            assertThat(r.finish().lock()).isEqualTo(new LockReleaseResult.Removed());
        });
        assertThat(cluster.podPatches()).isEmpty();
    }

    @Test
    void allocationsRunOneAtATime() {
        cluster.pod(PodFixtures.pod("p").container("a").container("b")
                .toAllocate(GPU + ",NVIDIA,1,1:;" + GPU + ",NVIDIA,2,2:;").build());
        lock("2026-01-01T00:00:00Z,default,p");
        AllocationService service = service();

        var first = service.allocate(List.of(List.of(GPU + "-0")));
        var second = service.allocate(List.of(List.of(GPU + "-1")));

        assertThat(first.toCompletableFuture().join()).isInstanceOf(AllocateResult.Allocated.class);
        assertThat(second.toCompletableFuture().join()).isInstanceOfSatisfying(AllocateResult.Allocated.class,
                ok -> assertThat(ok.responses().get(0).envs()).containsEntry("CUDA_DEVICE_MEMORY_LIMIT_0", "2m"));
        assertThat(cluster.currentPod("default", "p").orElseThrow().annotations())
                .containsEntry(HamiAnnotations.BIND_PHASE, "success")
                .containsEntry(HamiAnnotations.DEVICES_TO_ALLOCATE, ";;;;");
        assertThat(host.recreated()).containsExactly("/usr/local/vgpu/containers/p-uid_a", "/usr/local/vgpu/containers/p-uid_b");
    }

    @Test
    void preferredAllocationWithoutAPodAnswersNothing() {
        cluster.node(NODE, Map.of());
        List<List<String>> answer = service().preferred(List.of(new PreferredRequest(List.of(GPU + "-0"), List.of(), 1)))
                .toCompletableFuture().join();
        assertThat(answer).isEmpty();
    }
}
