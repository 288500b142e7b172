package io.vgpu.deviceplugin.devices;

import io.vgpu.deviceplugin.config.ConfigurationException;
import io.vgpu.deviceplugin.core.advertise.DeviceFilter;
import io.vgpu.deviceplugin.core.gpu.GpuDetails;
import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.deviceplugin.core.gpu.NvmlText;
import io.vgpu.deviceplugin.core.advertise.PhysicalDevice;
import io.vgpu.hamicore.DriverInfo;
import io.vgpu.hamicore.FakeNvml;
import io.vgpu.hamicore.GpuInfo;
import io.vgpu.hamicore.MajorMinor;
import io.vgpu.hamicore.NvmlException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The fake GPU file, the NVML source and the device state. */
class DeviceSourcesTest {

    @Test
    void fakeGpuFileDescribesGpusWithDefaults() {
        List<GpuFacts> gpus = FakeGpuSource.parse("""
                gpus:
                  - {uuid: GPU-a, name: NVIDIA T4, memoryMiB: 15360, numa: 1}
                  - {uuid: GPU-b, name: NVIDIA GB10, healthy: false, index: 5}
                """, "gpus.yaml");
        // identity facts default to unknown, except the minor number: the GPU's index
        assertThat(gpus).containsExactly(
                new GpuFacts("GPU-a", 0, "NVIDIA T4", OptionalLong.of(15360L * 1024 * 1024), OptionalInt.of(1), true,
                        minorOnly(0)),
                new GpuFacts("GPU-b", 5, "NVIDIA GB10", OptionalLong.empty(), OptionalInt.empty(), false, minorOnly(5)));
    }

    private static GpuDetails minorOnly(int minor) {
        return new GpuDetails(OptionalInt.of(minor), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty());
    }

    private static GpuDetails pciOnly(String address) {
        return new GpuDetails(OptionalInt.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.of(address));
    }

    @Test
    void pciBusIdsTakeDraFormFromNvmlsFormOrAreUnknown() {
        assertThat(NvmlText.pciAddress("00000000:3B:00.0")).contains("0000:3b:00.0");
        assertThat(NvmlText.pciAddress("0000:07:1f.7")).contains("0000:07:1f.7");
        assertThat(NvmlText.pciAddress("00010000:3B:00.0")).as("domain beyond 4 hex digits").isEmpty();
        assertThat(NvmlText.pciAddress("3B:00.0")).isEmpty();
        assertThat(NvmlText.pciAddress(null)).isEmpty();
        List<GpuFacts> gpus = FakeGpuSource.parse("""
                gpus:
                  - {uuid: GPU-a, name: T4, pciBusId: "00000000:0F:00.0"}
                  - {uuid: GPU-b, name: T4, pciBusId: "0000:07:00.0"}
                  - {uuid: GPU-c, name: T4}
                """, "gpus.yaml");
        assertThat(gpus).extracting(g -> g.details().pciBusId())
                .containsExactly(Optional.of("0000:0f:00.0"), Optional.of("0000:07:00.0"), Optional.empty());
        assertThatThrownBy(() -> new GpuDetails(OptionalInt.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.of("0000:3B:00.0"))).hasMessageContaining("lower case");
    }

    @Test
    void fakeGpuFileCarriesIdentityFactsWithTheDriverVersionsNodeWide() {
        List<GpuFacts> gpus = FakeGpuSource.parse("""
                driverVersion: "550.54.15"
                cudaDriverVersion: "12.4"
                gpus:
                  - uuid: GPU-h
                    name: NVIDIA H100 80GB HBM3
                    memoryMiB: 81559
                    minor: 3
                    architecture: Hopper
                    brand: Nvidia
                    cudaComputeCapability: "9.0"
                    pciBusId: "00000000:18:00.0"
                  - {uuid: GPU-t, name: Tesla T4, memoryMiB: 15360, cudaComputeCapability: "07.5"}
                """, "gpus.yaml");
        assertThat(gpus).extracting(GpuFacts::details).containsExactly(
                new GpuDetails(OptionalInt.of(3), Optional.of("Hopper"), Optional.of("Nvidia"), Optional.of("9.0"),
                        Optional.of("550.54.15"), Optional.of("12.4"), Optional.of("0000:18:00.0")),
                new GpuDetails(OptionalInt.of(1), Optional.empty(), Optional.empty(), Optional.of("7.5"),
                        Optional.of("550.54.15"), Optional.of("12.4")));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "no list        | {}                                                       | must have a list 'gpus'",
            "no uuid        | 'gpus: [{name: T4}]'                                     | gpus[0].uuid is required",
            "no name        | 'gpus: [{uuid: GPU-a}]'                                  | gpus[0].name is required",
            "negative mem   | 'gpus: [{uuid: GPU-a, name: T4, memoryMiB: -1}]'         | gpus[0].memoryMiB must be a non-negative integer",
            "twice          | 'gpus: [{uuid: GPU-a, name: T4}, {uuid: GPU-a, name: T4}]' | lists uuid GPU-a twice",
            "bad health     | 'gpus: [{uuid: GPU-a, name: T4, healthy: sometimes}]'    | healthy must be true or false",
            "unquoted cc    | 'gpus: [{uuid: GPU-a, name: T4, cudaComputeCapability: 7.5}]' | gpus[0].cudaComputeCapability must be a quoted string like \"9.0\", got 7.5 (YAML reads",
            "bad cc         | 'gpus: [{uuid: GPU-a, name: T4, cudaComputeCapability: sm_75}]' | gpus[0].cudaComputeCapability must be <major>.<minor> like \"9.0\", got \"sm_75\"",
            "bad cuda       | '{cudaDriverVersion: \"12\", gpus: []}'                    | gpus.yaml.cudaDriverVersion must be <major>.<minor>",
            "driver per gpu | 'gpus: [{uuid: GPU-a, name: T4, driverVersion: \"550.54.15\"}]' | gpus[0].driverVersion is node-wide: set it at the top level",
            "blank brand    | 'gpus: [{uuid: GPU-a, name: T4, brand: \" \"}]'             | gpus[0].brand must be a quoted string",
            "negative minor | 'gpus: [{uuid: GPU-a, name: T4, minor: -1}]'              | gpus[0].minor must be a non-negative integer",
            "minor twice    | 'gpus: [{uuid: GPU-a, name: T4, minor: 1}, {uuid: GPU-b, name: T4}]' | gives two GPUs the minor number 1 (/dev/nvidia1)",
            "bad pci        | 'gpus: [{uuid: GPU-a, name: T4, pciBusId: \"3b:00.0\"}]'   | gpus[0].pciBusId must be a PCI address like \"0000:07:00.0\", got \"3b:00.0\"",
            "pci twice      | 'gpus: [{uuid: GPU-a, name: T4, pciBusId: \"0000:07:00.0\"}, {uuid: GPU-b, name: T4, pciBusId: \"00000000:07:00.0\"}]' | gives two GPUs the PCI address 0000:07:00.0"})
    void badFakeGpuFilesAreNamed(String name, String yaml, String message) {
        assertThatThrownBy(() -> FakeGpuSource.parse(yaml, "gpus.yaml")).isInstanceOf(ConfigurationException.class).hasMessageContaining(message);
    }

    @Test
    void nvmlSourceTreatsNotSupportedMemoryAsUnknownAndFailsOnOtherErrors() {
        FakeNvml nvml = FakeNvml.withGpus(
                new GpuInfo(0, "GPU-a", "Tesla T4", 16L << 30, 0, "00000000:3B:00.0", 1, false),
                new GpuInfo(1, "GPU-b", "NVIDIA GB10", 0, 0, "00000000:3C:00.0", 0, false));
        NvmlDeviceSource source = new NvmlDeviceSource(nvml, "nvml:fake");
        nvml.failOn("nvmlDeviceGetMemoryInfo", 1, NvmlException.NOT_SUPPORTED);
        assertThat(source.scan()).containsExactly(
                new GpuFacts("GPU-a", 0, "Tesla T4", OptionalLong.of(16L << 30), OptionalInt.of(1), true, pciOnly("0000:3b:00.0")),
                new GpuFacts("GPU-b", 1, "NVIDIA GB10", OptionalLong.empty(), OptionalInt.of(0), true, pciOnly("0000:3c:00.0")));
        nvml.failOn("nvmlDeviceGetName", 0, NvmlException.GPU_IS_LOST);
        assertThatThrownBy(source::scan).isInstanceOf(NvmlException.class).hasMessageContaining("nvmlDeviceGetName");
    }

    @Test
    void nvmlSourceCarriesTheIdentityFactsAndTheNodeWideDriverVersions() {
        FakeNvml nvml = FakeNvml.withGpus(
                new GpuInfo(0, "GPU-h", "NVIDIA H100 80GB HBM3", 80L << 30, 0, "00000000:18:00.0", 0, false,
                        OptionalInt.of(2), Optional.of("Hopper"), Optional.of("Nvidia"), Optional.of(new MajorMinor(9, 0))),
                new GpuInfo(1, "GPU-t", "Tesla T4", 16L << 30, 0, "00000000:3B:00.0", 1, false));
        nvml.setDriver(new DriverInfo(Optional.of("550.54.15"), Optional.of(MajorMinor.fromCudaVersion(12040))));
        assertThat(new NvmlDeviceSource(nvml, "nvml:fake").scan()).extracting(GpuFacts::details).containsExactly(
                new GpuDetails(OptionalInt.of(2), Optional.of("Hopper"), Optional.of("Nvidia"), Optional.of("9.0"),
                        Optional.of("550.54.15"), Optional.of("12.4"), Optional.of("0000:18:00.0")),
                // facts the driver does not know stay unknown; the node-wide versions are on every GPU
                new GpuDetails(OptionalInt.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                        Optional.of("550.54.15"), Optional.of("12.4"), Optional.of("0000:3b:00.0")));
    }

    @Test
    void aFailingIdentityQueryLeavesThatFactUnknownAndNeverFailsTheScan() {
        FakeNvml nvml = FakeNvml.withGpus(
                new GpuInfo(0, "GPU-h", "NVIDIA H100 80GB HBM3", 80L << 30, 0, "00000000:18:00.0", 0, false,
                        OptionalInt.of(2), Optional.of("Hopper"), Optional.of("Nvidia"), Optional.of(new MajorMinor(9, 0))));
        nvml.setDriver(new DriverInfo(Optional.of("550.54.15"), Optional.of(new MajorMinor(12, 4))));
        nvml.failOn("nvmlDeviceGetBrand", 0, NvmlException.GPU_IS_LOST);
        nvml.failOn("nvmlSystemGetDriverVersion", -1, NvmlException.UNKNOWN);
        NvmlDeviceSource source = new NvmlDeviceSource(nvml, "nvml:fake");
        for (int scan = 0; scan < 2; scan++) {
            if (scan == 1) {
                // the driver query answers, but with nothing usable: unknown as well
                nvml.clearFailures();
                nvml.failOn("nvmlDeviceGetBrand", 0, NvmlException.GPU_IS_LOST);
                nvml.setDriver(new DriverInfo(Optional.of(" "), Optional.of(new MajorMinor(12, 4))));
            }
            assertThat(source.scan()).containsExactly(new GpuFacts("GPU-h", 0, "NVIDIA H100 80GB HBM3",
                    OptionalLong.of(80L << 30), OptionalInt.of(0), true, new GpuDetails(OptionalInt.of(2),
                    Optional.of("Hopper"), Optional.empty(), Optional.of("9.0"), Optional.empty(), Optional.of("12.4"),
                    Optional.of("0000:18:00.0"))));
        }
    }

    @Test
    void deviceStateFiltersSortsAndKeepsXidHealthSticky() {
        List<GpuFacts> scan = List.of(
                new GpuFacts("GPU-c", 2, "T4", OptionalLong.of(1), OptionalInt.empty(), true),
                new GpuFacts("GPU-a", 0, "T4", OptionalLong.of(1), OptionalInt.empty(), true),
                new GpuFacts("GPU-b", 1, "T4", OptionalLong.of(1), OptionalInt.empty(), true));
        DeviceState state = DeviceState.of(scan, new DeviceFilter(List.of("GPU-b"), List.of()));
        List<List<PhysicalDevice>> seen = new ArrayList<>();
        state.subscribe(seen::add);

        assertThat(state.devices()).extracting(PhysicalDevice::id).containsExactly("GPU-a", "GPU-c");
        state.markUnhealthy("GPU-a");
        state.markUnhealthy("GPU-a");
        state.markUnhealthy("GPU-b");
        assertThat(seen).as("one notification per real change").hasSize(1);
        state.applySourceHealth(scan);
        assertThat(state.health()).containsEntry("GPU-a", false).containsEntry("GPU-c", true);
        state.applySourceHealth(List.of(new GpuFacts("GPU-c", 2, "T4", OptionalLong.of(1), OptionalInt.empty(), false)));
        assertThat(state.health()).containsEntry("GPU-c", false);
        assertThat(seen).hasSize(2);
        assertThat(state.inventory().indexByUuid()).containsEntry("GPU-c", 2).doesNotContainKey("GPU-b");
    }
}
