package io.vgpu.hamicore;

import io.vgpu.testsupport.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static io.vgpu.hamicore.FakeNvmlLibrary.A100;
import static io.vgpu.hamicore.FakeNvmlLibrary.A100_FACTS_0;
import static io.vgpu.hamicore.FakeNvmlLibrary.T4;
import static io.vgpu.hamicore.FakeNvmlLibrary.T4_FACTS_2;
import static io.vgpu.hamicore.FakeNvmlLibrary.V100;
import static io.vgpu.hamicore.FakeNvmlLibrary.V100_FACTS_1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/** {@link NativeNvml} through JNI and dlopen against the fake libnvidia-ml built from src/test/c. */
class NativeNvmlTest {

    @TempDir
    Path dir;

    private NativeNvml open(String... scenario) throws IOException {
        return NativeNvml.open(FakeNvmlLibrary.install(dir, scenario).config());
    }

    @Test
    void describesEveryGpuIncludingNumaFromSysfsMigModeAndIdentity() throws IOException {
        try (NativeNvml nvml = open(A100, V100, T4, A100_FACTS_0, V100_FACTS_1, T4_FACTS_2)) {
            assertThat(nvml.describeAll()).containsExactly(
                    new GpuInfo(0, "GPU-aaaaaaaa-0000-0000-0000-000000000001", "NVIDIA A100-SXM4-40GB",
                            42949672960L, 1073741824L, "00000000:3B:00.0", 1, true,
                            OptionalInt.of(4), Optional.of("Ampere"), Optional.of("Nvidia"), Optional.of(new MajorMinor(8, 0))),
                    // numa_node holds -1: no NUMA information, reported as 0; MIG NOT_SUPPORTED: off
                    new GpuInfo(1, "GPU-bbbbbbbb-0000-0000-0000-000000000002", "Tesla V100-PCIE-32GB",
                            34359738368L, 0, "00000000:86:00.0", 0, false,
                            OptionalInt.of(0), Optional.of("Volta"), Optional.of("Tesla"), Optional.of(new MajorMinor(7, 0))),
                    // no numa_node file at all: 0
                    new GpuInfo(2, "GPU-cccccccc-0000-0000-0000-000000000003", "Tesla T4",
                            16106127360L, 2147483648L, "00000001:AF:00.0", 0, false,
                            OptionalInt.of(2), Optional.of("Turing"), Optional.of("Tesla"), Optional.of(new MajorMinor(7, 5))));
        }
    }

    @Test
    void reportsTheDriverAndCudaVersionsNodeWide() throws IOException {
        try (NativeNvml nvml = open(A100, "driver 535.104.05 12020")) {
            assertThat(nvml.driverVersion()).contains("535.104.05");
            assertThat(nvml.cudaDriverVersion()).contains(new MajorMinor(12, 2));
            assertThat(nvml.describeDriver()).isEqualTo(
                    new DriverInfo(Optional.of("535.104.05"), Optional.of(new MajorMinor(12, 2))));
        }
    }

    @Test
    void nvmlsOwnUnknownArchitectureAndBrandAreNamedUnknown() throws IOException {
        // a gpu line without a facts line: NVML_DEVICE_ARCH_UNKNOWN, NVML_BRAND_UNKNOWN, compute capability NOT_SUPPORTED
        try (NativeNvml nvml = open(V100, A100, "facts 1 3 42 99 9 0")) {
            assertThat(nvml.architecture(0)).contains("Unknown");
            assertThat(nvml.brand(0)).contains("Unknown");
            assertThat(nvml.minorNumber(0)).hasValue(0);
            assertThat(nvml.cudaComputeCapability(0)).isEmpty();
            // codes newer than this library: named Unknown, not a failure
            assertThat(nvml.architecture(1)).contains("Unknown");
            assertThat(nvml.brand(1)).contains("Unknown");
            assertThat(nvml.minorNumber(1)).hasValue(3);
            assertThat(nvml.cudaComputeCapability(1)).contains(new MajorMinor(9, 0));
        }
    }

    @Test
    void aNameIsReadUpToNvmlsFirstNulAndANameFillingTheWholeBufferLosesItsLastByte() throws IOException {
        // namebytes: NVML writes these bytes at the start of the 96-byte buffer, zeros after them
        String full = "A".repeat(95) + "Z";
        try (NativeNvml nvml = open(A100, V100, "namebytes 0 68656c6c6f007879",
                "namebytes 1 " + HexFormat.of().formatHex(full.getBytes(StandardCharsets.US_ASCII)))) {
            assertThat(nvml.name(0)).isEqualTo("hello");
            // HAMi's Go would read all 96 bytes; the C code terminates the buffer itself (docs/hami-deviations.md)
            assertThat(nvml.name(1)).isEqualTo("A".repeat(95));
        }
    }

    static Stream<Arguments> architectureNames() {
        return Stream.of(Arguments.of(2, "Kepler"), Arguments.of(3, "Maxwell"), Arguments.of(4, "Pascal"),
                Arguments.of(5, "Volta"), Arguments.of(6, "Turing"), Arguments.of(7, "Ampere"), Arguments.of(8, "Ada Lovelace"),
                Arguments.of(9, "Hopper"), Arguments.of(10, "Blackwell"), Arguments.of(0, "Unknown"),
                Arguments.of(1, "Unknown"), Arguments.of(11, "Orin"), Arguments.of(12, "Unknown"), Arguments.of(-1, "Unknown"));
    }

    @ParameterizedTest(name = "architecture {0} is {1}")
    @MethodSource("architectureNames")
    void architectureCodesHaveNvmlsNames(int code, String name) {
        NativeLibrary.load();
        assertThat(NativeBridge.architectureName(code)).isEqualTo(name);
    }

    static Stream<Arguments> brandNames() {
        return Stream.of(Arguments.of(0, "Unknown"), Arguments.of(1, "Quadro"), Arguments.of(2, "Tesla"),
                Arguments.of(3, "NVS"), Arguments.of(4, "Grid"), Arguments.of(5, "GeForce"), Arguments.of(6, "Titan"),
                Arguments.of(7, "NvidiaVApps"), Arguments.of(8, "NvidiaVPC"), Arguments.of(9, "NvidiaVCS"),
                Arguments.of(10, "NvidiaVWS"), Arguments.of(11, "NvidiaCloudGaming"), Arguments.of(12, "QuadroRTX"),
                Arguments.of(13, "NvidiaRTX"), Arguments.of(14, "Nvidia"), Arguments.of(15, "GeForceRTX"),
                Arguments.of(16, "TitanRTX"), Arguments.of(17, "Unknown"), Arguments.of(-1, "Unknown"));
    }

    @ParameterizedTest(name = "brand {0} is {1}")
    @MethodSource("brandNames")
    void brandCodesHaveNvmlsNames(int code, String name) {
        NativeLibrary.load();
        assertThat(NativeBridge.brandName(code)).isEqualTo(name);
    }

    @Test
    void anOlderDriverWithoutTheIdentityFunctionsStillDescribesEveryGpuWithThoseFactsUnknown() throws IOException {
        try (NativeNvml nvml = NativeNvml.open(FakeNvmlLibrary.installLegacy(dir, A100, V100).config())) {
            assertThat(nvml.describeAll()).containsExactly(
                    new GpuInfo(0, "GPU-aaaaaaaa-0000-0000-0000-000000000001", "NVIDIA A100-SXM4-40GB",
                            42949672960L, 1073741824L, "00000000:3B:00.0", 1, true),
                    new GpuInfo(1, "GPU-bbbbbbbb-0000-0000-0000-000000000002", "Tesla V100-PCIE-32GB",
                            34359738368L, 0, "00000000:86:00.0", 0, false));
            assertThat(nvml.describeDriver()).isEqualTo(DriverInfo.UNKNOWN);
        }
    }

    @Test
    void identityFactsTheDriverDoesNotSupportAreUnknownNotFailures() throws IOException {
        try (NativeNvml nvml = open(A100, V100, A100_FACTS_0, V100_FACTS_1,
                "fail nvmlDeviceGetMinorNumber 1 3", "fail nvmlDeviceGetArchitecture 1 3", "fail nvmlDeviceGetBrand 1 3",
                "fail nvmlDeviceGetCudaComputeCapability 1 3", "fail nvmlSystemGetDriverVersion -1 3",
                "fail nvmlSystemGetCudaDriverVersion_v2 -1 3")) {
            assertThat(nvml.describe(1)).isEqualTo(new GpuInfo(1, "GPU-bbbbbbbb-0000-0000-0000-000000000002",
                    "Tesla V100-PCIE-32GB", 34359738368L, 0, "00000000:86:00.0", 0, false));
            assertThat(nvml.describe(0).architecture()).contains("Ampere");
            assertThat(nvml.describeDriver()).isEqualTo(DriverInfo.UNKNOWN);
        }
    }

    @Test
    void reportsMemoryUtilizationAndMigModes() throws IOException {
        try (NativeNvml nvml = open(A100, V100)) {
            assertThat(nvml.memory(0)).isEqualTo(new MemoryInfo(42949672960L, 42949672960L - 1073741824L, 1073741824L));
            assertThat(nvml.utilization(0)).isEqualTo(new Utilization(35, 20));
            assertThat(nvml.migMode(0)).isEqualTo(new MigMode(true, true));
            assertThat(nvml.migMode(1)).isEqualTo(MigMode.DISABLED);
        }
    }

    @Test
    void seesNoGpusWhenNvmlHasNone() throws IOException {
        try (NativeNvml nvml = open("# no gpu lines")) {
            assertThat(nvml.deviceCount()).isZero();
            assertThat(nvml.describeAll()).isEmpty();
        }
    }

    static Stream<Arguments> nvmlFailures() {
        return Stream.of(
                Arguments.of("driver not loaded", List.of("init_error 9"),
                        (Consumer<NativeNvml>) Nvml::deviceCount, 9, "nvmlInit_v2"),
                Arguments.of("no such GPU index", List.of(A100),
                        (Consumer<NativeNvml>) n -> n.uuid(7), NvmlException.INVALID_ARGUMENT, "nvmlDeviceGetHandleByIndex_v2"),
                Arguments.of("negative GPU index", List.of(A100),
                        (Consumer<NativeNvml>) n -> n.name(-1), NvmlException.INVALID_ARGUMENT, "nvmlDeviceGetHandleByIndex_v2"),
                Arguments.of("GPU lost while reading memory", List.of(A100, V100, "fail nvmlDeviceGetMemoryInfo 1 15"),
                        (Consumer<NativeNvml>) n -> n.memory(1), NvmlException.GPU_IS_LOST, "nvmlDeviceGetMemoryInfo"),
                Arguments.of("count fails", List.of(A100, "fail nvmlDeviceGetCount_v2 -1 999"),
                        (Consumer<NativeNvml>) Nvml::deviceCount, NvmlException.UNKNOWN, "nvmlDeviceGetCount_v2"),
                Arguments.of("pci info fails, so NUMA cannot be read", List.of(A100, "fail nvmlDeviceGetPciInfo_v3 0 3"),
                        (Consumer<NativeNvml>) n -> n.numaNode(0), NvmlException.NOT_SUPPORTED, "nvmlDeviceGetPciInfo_v3"),
                Arguments.of("MIG query error other than NOT_SUPPORTED", List.of(A100, "fail nvmlDeviceGetMigMode 0 4"),
                        (Consumer<NativeNvml>) n -> n.migMode(0), NvmlException.NO_PERMISSION, "nvmlDeviceGetMigMode"),
                Arguments.of("describe propagates the first failure", List.of(A100, "fail nvmlDeviceGetUUID 0 15"),
                        (Consumer<NativeNvml>) n -> n.describe(0), NvmlException.GPU_IS_LOST, "nvmlDeviceGetUUID"),
                Arguments.of("GPU lost while reading its architecture", List.of(A100, "fail nvmlDeviceGetArchitecture 0 15"),
                        (Consumer<NativeNvml>) n -> n.architecture(0), NvmlException.GPU_IS_LOST, "nvmlDeviceGetArchitecture"),
                Arguments.of("describe propagates a lost GPU from the brand query", List.of(A100, "fail nvmlDeviceGetBrand 0 15"),
                        (Consumer<NativeNvml>) n -> n.describe(0), NvmlException.GPU_IS_LOST, "nvmlDeviceGetBrand"),
                Arguments.of("minor number of no such GPU", List.of(A100),
                        (Consumer<NativeNvml>) n -> n.minorNumber(3), NvmlException.INVALID_ARGUMENT, "nvmlDeviceGetHandleByIndex_v2"),
                Arguments.of("compute capability: no permission", List.of(A100, "fail nvmlDeviceGetCudaComputeCapability -1 4"),
                        (Consumer<NativeNvml>) n -> n.cudaComputeCapability(0), NvmlException.NO_PERMISSION,
                        "nvmlDeviceGetCudaComputeCapability"),
                Arguments.of("driver version fails", List.of(A100, "fail nvmlSystemGetDriverVersion -1 999"),
                        (Consumer<NativeNvml>) Nvml::describeDriver, NvmlException.UNKNOWN, "nvmlSystemGetDriverVersion"),
                Arguments.of("CUDA driver version fails", List.of(A100, "fail nvmlSystemGetCudaDriverVersion_v2 -1 999"),
                        (Consumer<NativeNvml>) Nvml::cudaDriverVersion, NvmlException.UNKNOWN, "nvmlSystemGetCudaDriverVersion_v2"),
                Arguments.of("event set cannot be created", List.of(A100, "fail nvmlEventSetCreate -1 999"),
                        (Consumer<NativeNvml>) n -> n.openXidEvents(List.of(0)), NvmlException.UNKNOWN, "nvmlEventSetCreate"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nvmlFailures")
    void nvmlErrorsBecomeTypedExceptionsWithCodeAndFunction(String name, List<String> scenario, Consumer<NativeNvml> call,
                                                            int code, String function) throws IOException {
        assertThatThrownBy(() -> {
            try (NativeNvml nvml = open(scenario.toArray(String[]::new))) {
                call.accept(nvml);
            }
        }).isInstanceOfSatisfying(NvmlException.class, e -> {
            assertThat(e.returnCode()).isEqualTo(code);
            assertThat(e.function()).isEqualTo(function);
            assertThat(e.getMessage()).contains(function).contains(NvmlException.codeName(code));
        });
    }

    @Test
    void missingNvmlLibraryIsLibraryNotFoundFromDlopen() {
        NvmlConfig config = NvmlConfig.defaults().withLibrary(dir.resolve("absent/libnvidia-ml.so.1").toString());
        assertThatThrownBy(() -> NativeNvml.open(config)).isInstanceOfSatisfying(NvmlException.class, e -> {
            assertThat(e.returnCode()).isEqualTo(NvmlException.LIBRARY_NOT_FOUND);
            assertThat(e.function()).isEqualTo("dlopen");
            assertThat(e.detail()).contains("No such file");
            assertThat(e.nvmlUnavailable()).isTrue();
        });
    }

    @Test
    void aLibraryThatIsNotNvmlIsFunctionNotFound() {
        NvmlConfig config = NvmlConfig.defaults().withLibrary("libc.so.6");
        assertThatThrownBy(() -> NativeNvml.open(config)).isInstanceOfSatisfying(NvmlException.class, e -> {
            assertThat(e.returnCode()).isEqualTo(NvmlException.FUNCTION_NOT_FOUND);
            assertThat(e.function()).isEqualTo("nvmlInit_v2");
            assertThat(e.nvmlUnavailable()).isTrue();
        });
    }

    @Test
    void callsAfterCloseFailCleanlyAndCloseIsIdempotent() throws IOException {
        NativeNvml nvml = open(A100);
        nvml.close();
        nvml.close();
        assertThatThrownBy(nvml::deviceCount).isInstanceOfSatisfying(NvmlException.class,
                e -> assertThat(e.returnCode()).isEqualTo(NvmlException.UNINITIALIZED));
        // "unknown" is only for facts the driver cannot answer, never for a closed handle
        assertThatThrownBy(() -> nvml.architecture(0)).isInstanceOfSatisfying(NvmlException.class,
                e -> assertThat(e.returnCode()).isEqualTo(NvmlException.UNINITIALIZED));
        assertThatThrownBy(nvml::describeDriver).isInstanceOfSatisfying(NvmlException.class,
                e -> assertThat(e.returnCode()).isEqualTo(NvmlException.UNINITIALIZED));
    }

    @Test
    void xidEventReachesTheWatcherThreadWithTheDeviceUuid() throws Exception {
        FakeNvmlLibrary fake = FakeNvmlLibrary.install(dir, A100, V100);
        BlockingQueue<XidEvent> events = new LinkedBlockingQueue<>();
        BlockingQueue<String> threads = new LinkedBlockingQueue<>();
        try (NativeNvml nvml = NativeNvml.open(fake.config());
             XidWatcher watcher = XidWatcher.start(nvml.openXidEvents(List.of(0, 1)), Duration.ofMillis(100),
                     e -> {
                         threads.add(Thread.currentThread().getName());
                         events.add(e);
                     }, e -> { })) {
            assertThat(watcher.isRunning()).isTrue();
            fake.injectXid(1, 79);
            XidEvent event = events.poll(5, TimeUnit.SECONDS);
            assertThat(event).isEqualTo(XidEvent.critical("GPU-bbbbbbbb-0000-0000-0000-000000000002", 79));
            assertThat(event.isXidCriticalError()).isTrue();
            assertThat(threads.poll()).isEqualTo(XidWatcher.THREAD_NAME);
        }
    }

    @Test
    void anEventWithoutADeviceHasAnEmptyUuid() throws Exception {
        FakeNvmlLibrary fake = FakeNvmlLibrary.install(dir, A100);
        try (NativeNvml nvml = NativeNvml.open(fake.config()); XidEventSet set = nvml.openXidEvents(List.of(0))) {
            fake.injectXid(-1, 48);
            Optional<XidEvent> event = set.await(Duration.ofSeconds(5));
            assertThat(event).hasValueSatisfying(e -> {
                assertThat(e.hasDevice()).isFalse();
                assertThat(e.xid()).isEqualTo(48);
            });
        }
    }

    @Test
    void awaitReturnsEmptyOnTimeout() throws IOException {
        try (NativeNvml nvml = open(A100); XidEventSet set = nvml.openXidEvents(List.of(0))) {
            assertThat(set.await(Duration.ofMillis(20))).isEmpty();
        }
    }

    @Test
    void devicesThatCannotRegisterAreReportedNotFatal() throws IOException {
        try (NativeNvml nvml = open(A100, V100, "fail nvmlDeviceRegisterEvents 0 3");
             XidEventSet set = nvml.openXidEvents(List.of(0, 1, 5))) {
            assertThat(set.registeredDevices()).containsExactly(1);
            assertThat(set.failedDevices()).containsOnlyKeys(0, 5);
            assertThat(set.failedDevices().get(0).returnCode()).isEqualTo(NvmlException.NOT_SUPPORTED);
            assertThat(set.failedDevices().get(5).function()).isEqualTo("nvmlDeviceGetHandleByIndex_v2");
        }
    }

    @Test
    void waitErrorsGoToTheErrorCallbackAndTheWatcherKeepsRunning() throws Exception {
        BlockingQueue<NvmlException> errors = new LinkedBlockingQueue<>();
        try (NativeNvml nvml = open(A100, "fail nvmlEventSetWait_v2 -1 999");
             XidWatcher watcher = XidWatcher.start(nvml.openXidEvents(List.of(0)), Duration.ofMillis(50),
                     e -> { }, errors::add)) {
            NvmlException error = errors.poll(5, TimeUnit.SECONDS);
            assertThat(error).isNotNull();
            assertThat(error.returnCode()).isEqualTo(NvmlException.UNKNOWN);
            assertThat(error.function()).isEqualTo("nvmlEventSetWait_v2");
            assertThat(watcher.isRunning()).isTrue();
        }
    }

    @Test
    void closeWaitsForAnEventWaitInFlightInsteadOfFreeingUnderIt() throws Exception {
        NativeNvml nvml = open(A100);
        XidEventSet set = nvml.openXidEvents(List.of(0));
        AtomicReference<Thread> waiter = new AtomicReference<>();
        CompletableFuture<Optional<XidEvent>> waiting = CompletableFuture.supplyAsync(() -> {
            waiter.set(Thread.currentThread());
            return set.await(Duration.ofMillis(1000));
        });
        Eventually.within(Duration.ofSeconds(5), "the waiter inside nvmlEventSetWait", () -> inEventWait(waiter.get()));
        assertTimeoutPreemptively(Duration.ofSeconds(5), nvml::close);
        assertThat(waiting.get(5, TimeUnit.SECONDS)).isEmpty();
        assertThatThrownBy(() -> set.await(Duration.ZERO)).isInstanceOf(NvmlException.class);
        set.close();
    }

    @Test
    void nvmlBusIdsMapToSysfsDeviceNames() {
        NativeLibrary.load();
        assertThat(NativeBridge.sysfsPciName("00000000:3B:00.0")).isEqualTo("0000:3b:00.0");
        assertThat(NativeBridge.sysfsPciName("00000001:AF:1F.7")).isEqualTo("0001:af:1f.7");
        assertThat(NativeBridge.sysfsPciName("0000:3b:00.0")).isEqualTo("0000:3b:00.0");
        assertThat(NativeBridge.sysfsPciName("GARBAGE/../X")).isEqualTo("garbage/../x");
        assertThat(NativeBridge.numaNode(dir.toString(), "GARBAGE/../X")).isZero();
    }

    private static boolean inEventWait(Thread thread) {
        StackTraceElement[] stack = thread == null ? new StackTraceElement[0] : thread.getStackTrace();
        return stack.length > 0 && stack[0].getClassName().equals(NativeBridge.class.getName())
                && stack[0].getMethodName().equals("eventWait");
    }
}
