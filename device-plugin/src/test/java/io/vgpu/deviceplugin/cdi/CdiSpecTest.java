package io.vgpu.deviceplugin.cdi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CdiSpecTest {

    private static final ContainerEdits NODE0 = ContainerEdits.builder().deviceNode(DeviceNode.of("/dev/nvidia0")).build();

    @Test
    void declaresTheLowestVersionItsFieldsAllow() {
        // row by row: the field that raises the floor, and the version it needs
        assertThat(spec("k8s.gpu.vgpu.io/claim", "gpu0", NODE0).cdiVersion()).as("base").isEqualTo("0.3.0");
        assertThat(spec("k8s.gpu.vgpu.io/claim", "gpu0", ContainerEdits.builder()
                .mount(new Mount("/a", "/b", Optional.of("bind"), List.of())).build()).cdiVersion())
                .as("typed mount").isEqualTo("0.4.0");
        assertThat(spec("k8s.gpu.vgpu.io/claim", "6f1e-gpu-0", NODE0).cdiVersion())
                .as("device name starting with a digit (a claim UID)").isEqualTo("0.5.0");
        assertThat(spec("k8s.gpu.vgpu.io/claim", "gpu0", ContainerEdits.builder().deviceNode(new DeviceNode("/dev/nvidia0",
                Optional.of("/host/dev/nvidia0"), Optional.empty(), OptionalLong.empty(), OptionalLong.empty(),
                Optional.empty())).build()).cdiVersion()).as("device node hostPath").isEqualTo("0.5.0");
        assertThat(new CdiSpec("k8s.gpu.vgpu.io/claim", Map.of("a", "b"), List.of(new CdiDevice("gpu0", NODE0)),
                ContainerEdits.NONE).cdiVersion()).as("annotations").isEqualTo("0.6.0");
        assertThat(spec("vendor.com/claim.v2", "gpu0", NODE0).cdiVersion()).as("dot in the class").isEqualTo("0.6.0");
    }

    @Test
    void qualifiesDeviceNamesWithTheKind() {
        CdiSpec spec = spec("k8s.gpu.vgpu.io/claim", "uid-gpu-gpu-0", NODE0);
        assertThat(spec.qualifiedName(spec.devices().get(0))).isEqualTo("k8s.gpu.vgpu.io/claim=uid-gpu-gpu-0");
        assertThat(CdiNames.transientFileName("k8s.gpu.vgpu.io/claim", "6f1e/x"))
                .isEqualTo("k8s.gpu.vgpu.io-claim_6f1e_x.json");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "no class            | vendor.com       | gpu0      | CDI kind must be <vendor>/<class>",
            "class with slash    | vendor.com/a/b   | gpu0      | CDI kind must be <vendor>/<class>",
            "vendor digit first  | 1vendor.com/c    | gpu0      | CDI kind must be <vendor>/<class>",
            "device dash last    | vendor.com/c     | gpu0-     | CDI device name must be",
            "device with slash   | vendor.com/c     | a/b       | CDI device name must be"})
    void refusesNamesARuntimeWouldRefuse(String name, String kind, String device, String message) {
        assertThatThrownBy(() -> spec(kind, device, NODE0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }

    @Test
    void refusesRepeatedDevicesRelativePathsAndBadEnv() {
        assertThatThrownBy(() -> new CdiSpec("v.com/c", List.of(new CdiDevice("a", NODE0), new CdiDevice("a", NODE0)),
                ContainerEdits.NONE)).hasMessageContaining("appears twice");
        assertThatThrownBy(() -> new CdiSpec("v.com/c", List.of(), ContainerEdits.NONE)).hasMessageContaining("at least one device");
        assertThatThrownBy(() -> DeviceNode.of("dev/nvidia0")).hasMessageContaining("absolute");
        assertThatThrownBy(() -> Mount.bind("/a", "b", true)).hasMessageContaining("absolute");
        assertThatThrownBy(() -> new ContainerEdits(List.of("=x"), List.of(), List.of(), List.of())).hasMessageContaining("NAME=VALUE");
        assertThatThrownBy(() -> Hook.of("preStart", "/bin/true", List.of())).hasMessageContaining("unknown CDI hook name");
    }

    private static CdiSpec spec(String kind, String device, ContainerEdits edits) {
        return new CdiSpec(kind, List.of(new CdiDevice(device, edits)), ContainerEdits.NONE);
    }
}
