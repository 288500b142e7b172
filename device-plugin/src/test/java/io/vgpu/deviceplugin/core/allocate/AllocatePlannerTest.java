package io.vgpu.deviceplugin.core.allocate;
import io.vgpu.deviceplugin.core.advertise.DeviceInventory;
import io.vgpu.deviceplugin.core.hook.HookFiles;
import io.vgpu.deviceplugin.core.cluster.PodView;

import io.vgpu.deviceplugin.testing.PodFixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class AllocatePlannerTest {

    private static final String GPU_A = "GPU-aaaaaaaa-0000-0000-0000-000000000000";
    private static final String GPU_B = "GPU-bbbbbbbb-0000-0000-0000-000000000000";
    private static final DeviceInventory INVENTORY = new DeviceInventory(Set.of(GPU_A, GPU_B), Map.of(GPU_A, 0, GPU_B, 3));

    private static AllocateSettings settings(DeviceIdStrategy ids, List<DeviceListStrategy> lists, String mode) {
        return new AllocateSettings("nvidia.com/gpu", "/usr/local", 1, "", false, ids, lists, false, mode, "", false,
                CdiSettings.defaults(), List.of(), false, false, false);
    }

    private static AllocatePlan plan(AllocateSettings settings, PodView pod, List<List<String>> requests) {
        UUID fixed = UUID.fromString("00000000-0000-4000-8000-000000000001");
        return new AllocatePlanner(settings, () -> fixed).plan(pod, requests, HookFiles.none(), INVENTORY);
    }

    private static ContainerResponse only(AllocatePlan plan) {
        assertThat(plan).isInstanceOf(AllocatePlan.Serve.class);
        return ((AllocatePlan.Serve) plan).responses().get(0);
    }

    @Test
    void indexStrategyNamesDevicesByTheirNvmlIndex() {
        PodView pod = PodFixtures.pod("p").toAllocate(GPU_B + ",NVIDIA,1000,10:" + GPU_A + ",NVIDIA,1000,10:;").build();
        ContainerResponse r = only(plan(settings(DeviceIdStrategy.INDEX, List.of(DeviceListStrategy.ENVVAR), "hami-core"),
                pod, List.of(List.of(GPU_B + "-0", GPU_A + "-1"))));
        assertThat(r.envs()).containsEntry("NVIDIA_VISIBLE_DEVICES", "3,0");
    }

    @Test
    void cdiOnlyStrategiesSetNoDeviceVariableButStillAddHamiCore() {
        PodView pod = PodFixtures.pod("p").toAllocate(GPU_A + ",NVIDIA,1000,10:;").build();
        ContainerResponse r = only(plan(settings(DeviceIdStrategy.UUID, List.of(DeviceListStrategy.CDI_CRI, DeviceListStrategy.CDI_ANNOTATIONS),
                "hami-core"), pod, List.of(List.of(GPU_A + "-0"))));
        assertThat(r.envs()).doesNotContainKey("NVIDIA_VISIBLE_DEVICES").containsEntry("CUDA_DEVICE_MEMORY_LIMIT_0", "1000m");
        assertThat(r.cdiDevices()).containsExactly("k8s.device-plugin.nvidia.com/gpu=" + GPU_A);
        assertThat(r.annotations()).containsEntry("cdi.k8s.io/nvidia-device-plugin_00000000-0000-4000-8000-000000000001",
                "k8s.device-plugin.nvidia.com/gpu=" + GPU_A);
    }

    @Test
    void withTheAgentsOwnSpecEachGpuIsNamedWithItsStaticDeviceAndTheRuntimeGetsTheGpus() {
        PodView pod = PodFixtures.pod("p").toAllocate(GPU_B + ",NVIDIA,1000,10:" + GPU_A + ",NVIDIA,1000,10:;").build();
        AllocateSettings base = settings(DeviceIdStrategy.INDEX, List.of(DeviceListStrategy.CDI_CRI), "hami-core");
        AllocateSettings own = new AllocateSettings(base.resourceName(), base.hookPath(), 1, "", false, DeviceIdStrategy.INDEX,
                base.deviceListStrategies(), false, "hami-core", "", false,
                base.cdi().with(CdiSettings.Libraries.agentSpec(Map.of("3", "nvidia.com/gpu=3"))), List.of(), false, false, false);

        ContainerResponse r = only(plan(own, pod, List.of(List.of(GPU_B + "-0", GPU_A + "-1"))));

        assertThat(r.cdiDevices()).containsExactly("k8s.device-plugin.nvidia.com/gpu=3", "nvidia.com/gpu=3",
                "k8s.device-plugin.nvidia.com/gpu=0");
        assertThat(r.envs()).containsEntry("NVIDIA_VISIBLE_DEVICES", "3,0").containsEntry("CUDA_DEVICE_MEMORY_LIMIT_1", "1000m");
    }

    @Test
    void migModeAddsNoHamiCoreEnvNorMountsNorCacheDirectory() {
        PodView pod = PodFixtures.pod("p").toAllocate(GPU_A + ",NVIDIA,1000,10:;").build();
        AllocatePlan plan = plan(settings(DeviceIdStrategy.UUID, List.of(DeviceListStrategy.ENVVAR), "mig"), pod, List.of(List.of(GPU_A + "-0")));
        assertThat(only(plan).envs()).containsOnlyKeys("NVIDIA_VISIBLE_DEVICES");
        assertThat(only(plan).mounts()).isEmpty();
        assertThat(plan.containerDirs()).isEmpty();
        assertThat(((AllocatePlan.Serve) plan).remainingAnnotation()).isEqualTo(";;");
    }

    @Test
    void aFailingSecondRequestKeepsTheFirstContainersDirectoryAndAnnotationUntouched() {
        PodView pod = PodFixtures.pod("p").container("a").container("b")
                .toAllocate(GPU_A + ",NVIDIA,1000,10:;" + GPU_B + ",NVIDIA,1000,10:" + GPU_A + ",NVIDIA,1000,10:;").build();
        AllocatePlan plan = plan(settings(DeviceIdStrategy.UUID, List.of(DeviceListStrategy.ENVVAR), "hami-core"), pod,
                List.of(List.of(GPU_A + "-0"), List.of(GPU_B + "-0")));
        assertThat(plan).isEqualTo(new AllocatePlan.Refuse("device number not matched", List.of("/usr/local/vgpu/containers/p-uid_a")));
    }

    @Test
    void kubeletIdsWithoutMigAndUnknownMigIdsAreRefusedByName() {
        PodView pod = PodFixtures.pod("p").toAllocate(GPU_A + ",NVIDIA,1000,10:;").build();
        AllocatePlan plan = plan(settings(DeviceIdStrategy.UUID, List.of(DeviceListStrategy.ENVVAR), "hami-core"), pod,
                List.of(List.of("MIG-unknown")));
        assertThat(plan).isEqualTo(new AllocatePlan.Refuse(
                "invalid allocation request for 'nvidia.com/gpu': unknown device: MIG-unknown", List.of()));
    }

    static Stream<Arguments> disableControlValues() {
        return Stream.of(
                Arguments.of("1 (Go true)", "1", false), Arguments.of("t", "t", false), Arguments.of("TRUE", "TRUE", false),
                Arguments.of("True", "True", false), Arguments.of("false", "false", true), Arguments.of("yes (not Go bool)", "yes", true),
                Arguments.of("tRUE (Go is case-sensitive)", "tRUE", true), Arguments.of("empty", "", true));
    }

    @ParameterizedTest(name = "CUDA_DISABLE_CONTROL={0} → preload mounted: {2}")
    @MethodSource("disableControlValues")
    void preloadMountFollowsGoParseBoolOfCudaDisableControl(String name, String value, boolean preloadMounted) {
        PodView pod = PodFixtures.pod("p").container("c", Map.of("CUDA_DISABLE_CONTROL", value))
                .toAllocate(GPU_A + ",NVIDIA,1000,10:;").build();
        List<String> paths = new ArrayList<>();
        only(plan(settings(DeviceIdStrategy.UUID, List.of(DeviceListStrategy.ENVVAR), "hami-core"), pod, List.of(List.of(GPU_A + "-0"))))
                .mounts().forEach(m -> paths.add(m.containerPath()));
        assertThat(paths.contains("/etc/ld.so.preload")).isEqualTo(preloadMounted);
    }

    @Test
    void eachAllocateGrowsTheAnnotationByOneSeparatorAsHamiDoes() {
        PodView pod = PodFixtures.pod("p").container("a").container("b")
                .toAllocate(GPU_A + ",NVIDIA,1000,10:;" + GPU_B + ",NVIDIA,2000,20:;").build();
        AllocatePlan.Serve first = (AllocatePlan.Serve) plan(settings(DeviceIdStrategy.UUID, List.of(DeviceListStrategy.ENVVAR), "hami-core"),
                pod, List.of(List.of(GPU_A + "-0")));
        assertThat(first.remainingAnnotation()).isEqualTo(";" + GPU_B + ",NVIDIA,2000,20:;;");
        PodView after = PodFixtures.pod("p").container("a").container("b").toAllocate(first.remainingAnnotation()).build();
        AllocatePlan.Serve second = (AllocatePlan.Serve) plan(settings(DeviceIdStrategy.UUID, List.of(DeviceListStrategy.ENVVAR), "hami-core"),
                after, List.of(List.of(GPU_B + "-0")));
        assertThat(second.remainingAnnotation()).isEqualTo(";;;;");
        assertThat(second.responses().get(0).envs()).containsEntry("CUDA_DEVICE_MEMORY_LIMIT_0", "2000m");
        assertThat(second.containerDirs()).containsExactly("/usr/local/vgpu/containers/p-uid_b");
    }
}
