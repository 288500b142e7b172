package io.vgpu.hamicore;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The MIG half of the {@link Nvml} contract, run against {@link FakeNvml} and against
 * {@link NativeNvml} over the fake C library describing the same GPUs: both must give the same
 * answers and the same error codes, so what the device plugin's tests prove with the Java fake also
 * holds for the native path. GPU 0 is an A100 with MIG off, GPU 1 a V100 without MIG.
 */
class NvmlMigContractTest {

    private static final String A100_UUID = "GPU-aaaaaaaa-0000-0000-0000-000000000001";

    @TempDir
    static Path dir;

    /** A fresh NVML with the two GPUs; {@code extra} scenario lines for the native one only. */
    interface Factory extends Function<List<String>, Nvml> {
    }

    static Stream<Arguments> implementations() {
        Factory fake = extra -> {
            FakeNvml nvml = FakeNvml.withGpus(
                    new GpuInfo(0, A100_UUID, "NVIDIA A100-SXM4-40GB", 40L << 30, 0, "00000000:3B:00.0", 0, false),
                    new GpuInfo(1, "GPU-bbbbbbbb-0000-0000-0000-000000000002", "Tesla V100-PCIE-32GB", 32L << 30, 0,
                            "00000000:86:00.0", 0, false));
            nvml.setMigProfiles(0, FakeNvml.a100Profiles());
            return nvml;
        };
        Factory nativeNvml = extra -> {
            List<String> scenario = new ArrayList<>(List.of(
                    "gpu " + A100_UUID + " 00000000:3B:00.0 42949672960 0 0 0 0 NVIDIA A100-SXM4-40GB",
                    FakeNvmlLibrary.V100));
            scenario.addAll(FakeNvmlLibrary.migProfileLines(0, FakeNvml.a100Profiles()));
            scenario.addAll(extra);
            try {
                Path own = java.nio.file.Files.createTempDirectory(dir, "nvml");
                return NativeNvml.open(FakeNvmlLibrary.install(own, scenario.toArray(String[]::new)).config());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
        return Stream.of(Arguments.of("FakeNvml", fake), Arguments.of("NativeNvml", nativeNvml));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("implementations")
    void listsTheProfilesWithTheirPlacementsAndNamesThemLikeNvidiaSmi(String name, Factory factory) {
        try (Nvml nvml = factory.apply(List.of())) {
            assertThat(nvml.gpuInstanceProfiles(0)).isEqualTo(sortedByProfile(FakeNvml.a100Profiles()));
            assertThat(nvml.gpuInstanceProfiles(0)).extracting(GpuInstanceProfile::name)
                    .containsExactly("1g.5gb", "2g.10gb", "3g.20gb", "4g.20gb", "7g.40gb", "1g.5gb+me", "1g.10gb");
            // a GPU without MIG: no profiles, and its MIG mode reads as off
            assertThat(nvml.gpuInstanceProfiles(1)).isEmpty();
            assertThat(nvml.migMode(1)).isEqualTo(MigMode.DISABLED);
            assertThat(nvml.gpuInstances(1)).isEmpty();
            assertThat(nvml.migDevices(1)).isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("implementations")
    void createsExactlyTheRequestedPlacementAndRefusesOverlapsWithTheDriversCodes(String name, Factory factory) {
        try (Nvml nvml = factory.apply(List.of())) {
            GpuInstanceProfile oneSlice = profile(nvml, GpuInstanceProfile.ONE_SLICE);
            GpuInstanceProfile threeSlice = profile(nvml, GpuInstanceProfile.THREE_SLICE);
            // MIG off: no instance can be created
            assertCode(() -> nvml.createGpuInstance(0, oneSlice.id(), new InstancePlacement(6, 1)), FakeMig.INVALID_STATE,
                    "nvmlDeviceCreateGpuInstanceWithPlacement");
            nvml.setMigMode(0, true);
            assertThat(nvml.migMode(0)).isEqualTo(new MigMode(true, true));

            int gi = nvml.createGpuInstance(0, oneSlice.id(), new InstancePlacement(6, 1));
            int ci = nvml.createComputeInstance(0, gi, GpuInstanceProfile.computeProfileFor(oneSlice.sliceCount()));
            int big = nvml.createGpuInstance(0, threeSlice.id(), new InstancePlacement(0, 4));
            nvml.createComputeInstance(0, big, GpuInstanceProfile.computeProfileFor(3));

            assertThat(nvml.gpuInstances(0)).containsExactly(
                    new GpuInstance(gi, oneSlice.id(), new InstancePlacement(6, 1), List.of(ci)),
                    new GpuInstance(big, threeSlice.id(), new InstancePlacement(0, 4), List.of(0)));
            List<MigDevice> devices = nvml.migDevices(0);
            assertThat(devices).extracting(MigDevice::gpuInstanceId).containsExactly(gi, big);
            assertThat(devices).allSatisfy(d -> assertThat(d.uuid()).startsWith("MIG-"));
            assertThat(devices).extracting(MigDevice::uuid).doesNotHaveDuplicates();

            // the same slices again, a placement the profile does not have, a compute instance too many
            assertCode(() -> nvml.createGpuInstance(0, oneSlice.id(), new InstancePlacement(2, 1)),
                    FakeMig.INSUFFICIENT_RESOURCES, "nvmlDeviceCreateGpuInstanceWithPlacement");
            assertCode(() -> nvml.createGpuInstance(0, threeSlice.id(), new InstancePlacement(2, 4)),
                    NvmlException.INVALID_ARGUMENT, "nvmlDeviceCreateGpuInstanceWithPlacement");
            assertCode(() -> nvml.createComputeInstance(0, gi, 0), FakeMig.INSUFFICIENT_RESOURCES,
                    "nvmlGpuInstanceCreateComputeInstance");
            // a GPU instance in use, MIG off while instances exist, a compute instance that is gone
            assertCode(() -> nvml.destroyGpuInstance(0, gi), FakeMig.IN_USE, "nvmlGpuInstanceDestroy");
            assertCode(() -> nvml.setMigMode(0, false), FakeMig.IN_USE, "nvmlDeviceSetMigMode");
            nvml.destroyComputeInstance(0, gi, ci);
            assertCode(() -> nvml.destroyComputeInstance(0, gi, ci), NvmlException.NOT_FOUND,
                    "nvmlGpuInstanceGetComputeInstanceById");
            nvml.destroyGpuInstance(0, gi);
            assertCode(() -> nvml.destroyGpuInstance(0, gi), NvmlException.NOT_FOUND, "nvmlDeviceGetGpuInstanceById");
            assertThat(nvml.gpuInstances(0)).extracting(GpuInstance::id).containsExactly(big);
            // the freed slices can be taken again
            assertThat(nvml.createGpuInstance(0, oneSlice.id(), new InstancePlacement(6, 1))).isPositive();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("implementations")
    void injectedFailuresReachTheCallerWithTheirFunction(String name, Factory factory) {
        Nvml nvml = factory.apply(List.of("fail nvmlGpuInstanceCreateComputeInstance 0 23"));
        try (nvml) {
            if (nvml instanceof FakeNvml fake) {
                fake.failOn("nvmlGpuInstanceCreateComputeInstance", 0, FakeMig.INSUFFICIENT_RESOURCES);
            }
            nvml.setMigMode(0, true);
            int gi = nvml.createGpuInstance(0, profile(nvml, GpuInstanceProfile.ONE_SLICE).id(), new InstancePlacement(0, 1));
            assertCode(() -> nvml.createComputeInstance(0, gi, 0), FakeMig.INSUFFICIENT_RESOURCES,
                    "nvmlGpuInstanceCreateComputeInstance");
            assertThat(nvml.gpuInstances(0)).singleElement().satisfies(g -> assertThat(g.computeInstanceIds()).isEmpty());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("implementations")
    void aMigModeQueryAnsweredNotSupportedMeansMigOffWhileOtherErrorsPropagate(String name, Factory factory) {
        try (Nvml nvml = factory.apply(List.of("fail nvmlDeviceGetMigMode 0 3", "fail nvmlDeviceGetMigMode 1 15"))) {
            if (nvml instanceof FakeNvml fake) {
                fake.failOn("nvmlDeviceGetMigMode", 0, NvmlException.NOT_SUPPORTED);
                fake.failOn("nvmlDeviceGetMigMode", 1, NvmlException.GPU_IS_LOST);
            }
            assertThat(nvml.migMode(0)).isEqualTo(MigMode.DISABLED);
            assertCode(() -> nvml.migMode(1), NvmlException.GPU_IS_LOST, "nvmlDeviceGetMigMode");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("implementations")
    void countsProcessesOnTheGpuOrOnItsMigDevices(String name, Factory factory) {
        try (Nvml nvml = factory.apply(List.of("procs 1 2"))) {
            if (nvml instanceof FakeNvml fake) {
                fake.setRunningProcesses(1, 2);
            }
            assertThat(nvml.runningProcessCount(0)).isZero();
            assertThat(nvml.runningProcessCount(1)).isEqualTo(2);
        }
    }

    private static GpuInstanceProfile profile(Nvml nvml, int constant) {
        return nvml.gpuInstanceProfiles(0).stream().filter(p -> p.profile() == constant).findFirst().orElseThrow();
    }

    private static List<GpuInstanceProfile> sortedByProfile(List<GpuInstanceProfile> profiles) {
        return profiles.stream().sorted(java.util.Comparator.comparingInt(GpuInstanceProfile::profile)).toList();
    }

    private static void assertCode(Runnable call, int code, String function) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(NvmlException.class, e -> {
            assertThat(e.returnCode()).as(e.getMessage()).isEqualTo(code);
            assertThat(e.function()).isEqualTo(function);
        });
    }

    private static void assertCode(ThrowingCall call, int code, String function) {
        assertCode((Runnable) () -> call.run(), code, function);
    }

    /** A call that returns a value the assertion ignores. */
    @FunctionalInterface
    interface ThrowingCall {
        Object run();
    }
}
