package io.vgpu.hamicore;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static io.vgpu.hamicore.FakeNvmlLibrary.A100;
import static io.vgpu.hamicore.FakeNvmlLibrary.T4;
import static io.vgpu.hamicore.FakeNvmlLibrary.V100;
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
    void describesEveryGpuIncludingNumaFromSysfsAndMigMode() throws IOException {
        try (NativeNvml nvml = open(A100, V100, T4)) {
            assertThat(nvml.describeAll()).containsExactly(
                    new GpuInfo(0, "GPU-aaaaaaaa-0000-0000-0000-000000000001", "NVIDIA A100-SXM4-40GB",
                            42949672960L, 1073741824L, "00000000:3B:00.0", 1, true),
                    // numa_node holds -1: no NUMA information, reported as 0; MIG NOT_SUPPORTED: off
                    new GpuInfo(1, "GPU-bbbbbbbb-0000-0000-0000-000000000002", "Tesla V100-PCIE-32GB",
                            34359738368L, 0, "00000000:86:00.0", 0, false),
                    // no numa_node file at all: 0
                    new GpuInfo(2, "GPU-cccccccc-0000-0000-0000-000000000003", "Tesla T4",
                            16106127360L, 2147483648L, "00000001:AF:00.0", 0, false));
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
        CompletableFuture<Optional<XidEvent>> waiting = CompletableFuture.supplyAsync(() -> set.await(Duration.ofMillis(300)));
        Thread.sleep(50);
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
}
