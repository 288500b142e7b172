package io.vgpu.deviceplugin.devices;
import io.vgpu.deviceplugin.health.HealthCause;

import io.vgpu.deviceplugin.core.advertise.DeviceFilter;
import io.vgpu.deviceplugin.core.gpu.GpuDetails;
import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.deviceplugin.core.register.NodeSettings;
import io.vgpu.deviceplugin.core.register.NvidiaSettings;
import io.vgpu.deviceplugin.core.register.SliceInputs;
import io.vgpu.state.dra.DeviceTaint;
import io.vgpu.state.dra.GpuHealth;
import io.vgpu.state.dra.SliceBuilder;
import io.vgpu.state.dra.SliceDevice;
import io.vgpu.state.dra.SliceInput;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/** XID health as DRA mode taints it: a GPU's own fatal XID evicts (NoExecute), any other failure only stops new shares. */
class DeviceStateDraHealthTest {

    private static GpuFacts gpu(String uuid, int index) {
        return new GpuFacts(uuid, index, "NVIDIA H100", OptionalLong.of(80L << 30), OptionalInt.of(0), true,
                new GpuDetails(OptionalInt.of(index), Optional.empty(), Optional.empty(), Optional.empty(),
                        Optional.empty(), Optional.empty()));
    }

    @Test
    void aGpusOwnXidTaintsNoExecuteOtherFailuresNoSchedule() {
        List<GpuFacts> scan = List.of(gpu("GPU-a", 0), gpu("GPU-b", 1), gpu("GPU-c", 2));
        DeviceState state = DeviceState.of(scan, DeviceFilter.none());
        state.markFatalXid("GPU-a", 79, HealthCause.sticky("XID 79"));
        state.markFatalXid("GPU-a", 48, HealthCause.sticky("XID 48")); // the first XID is the one reported
        state.markUnhealthy("GPU-b");    // e.g. its event registration failed
        state.markFatalXid("GPU-unknown", 79, HealthCause.sticky("XID 79"));

        assertThat(state.sliceHealth()).containsExactly(Map.entry("GPU-a", GpuHealth.fatalXid(79)),
                Map.entry("GPU-b", GpuHealth.UNHEALTHY), Map.entry("GPU-c", GpuHealth.HEALTHY));
        List<SliceDevice> devices = SliceBuilder.build(SliceInputs.of("n", scan, state.sliceHealth(),
                new NodeSettings(NvidiaSettings.defaults(), "hami-core", false, DeviceFilter.none()), "GPU-c",
                SliceInput.TaintSupport.TAINT)).content().devices();
        assertThat(devices).extracting(SliceDevice::taints).containsExactly(
                List.of(new DeviceTaint("gpu.vgpu.io/xid", "79", "NoExecute")),
                List.of(new DeviceTaint("gpu.vgpu.io/unhealthy", "", "NoSchedule")),
                List.of(new DeviceTaint("gpu.vgpu.io/cordoned", "", "NoSchedule")));
    }

    @Test
    void aRecoveredXidLeavesNoTaint() {
        List<GpuFacts> scan = List.of(gpu("GPU-a", 0));
        DeviceState state = DeviceState.of(scan, DeviceFilter.none());
        state.markFatalXid("GPU-a", 31, new HealthCause("XID 31", true));
        assertThat(state.sliceHealth()).containsExactly(Map.entry("GPU-a", GpuHealth.fatalXid(31)));

        assertThat(state.recover("GPU-a", state.recoverable().get("GPU-a"))).isTrue();
        assertThat(state.sliceHealth()).containsExactly(Map.entry("GPU-a", GpuHealth.HEALTHY));
        state.markUnhealthy("GPU-a", new HealthCause("NVML", true));
        assertThat(state.sliceHealth()).as("a later mark of another kind is not the old XID")
                .containsExactly(Map.entry("GPU-a", GpuHealth.UNHEALTHY));
    }
}
