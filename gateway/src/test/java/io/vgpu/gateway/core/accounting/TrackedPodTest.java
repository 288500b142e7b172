package io.vgpu.gateway.core.accounting;

import io.vgpu.state.codec.PodDevicesCodec;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.DeviceGrant;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TrackedPodTest {

    private static final List<DeviceGrant> GRANTS = List.of(new DeviceGrant("GPU-a", "NVIDIA", 1024, 0, 1));

    @Test
    void keepsTheDecodersImmutableListsInsteadOfCopyingThem() {
        // what PodTracker hands it: the decoded allocation, immutable to the last list
        List<List<ContainerDevice>> decoded = PodDevicesCodec.decode("GPU-a,NVIDIA,1024,0:;").value();

        TrackedPod pod = new TrackedPod("u1", "ns", "p1", "n1", decoded, 0, GRANTS, false);

        assertThat(pod.containers()).isSameAs(decoded);
    }

    @Test
    void stillCopiesMutableListsDeeply() {
        List<ContainerDevice> devices = new ArrayList<>(List.of(new ContainerDevice(0, "GPU-a", "NVIDIA", 1024, 0)));
        List<List<ContainerDevice>> containers = new ArrayList<>(List.of(devices));

        TrackedPod pod = new TrackedPod("u1", "ns", "p1", "n1", containers, 0, GRANTS, false);
        devices.clear();
        containers.add(List.of());

        assertThat(pod.containers()).hasSize(1);
        assertThat(pod.containers().get(0)).hasSize(1);
        assertThatThrownBy(() -> pod.containers().get(0).clear()).isInstanceOf(UnsupportedOperationException.class);
    }
}
