package io.vgpu.deviceplugin.core.advertise;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DeviceIdsTest {

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource({
            "GPU-03f69c50-207a-2038-9b45-23cac89cb67a-7, GPU-03f69c50-207a-2038-9b45-23cac89cb67a",
            "GPU-03f69c50-207a-2038-9b45-23cac89cb67a-x, GPU-03f69c50-207a-2038-9b45-23cac89cb67a-x",
            "GPU-03f69c50-207a-2038-9b45-23cac89cb67a-, GPU-03f69c50-207a-2038-9b45-23cac89cb67a-",
            "GPU-03f69c50-207a-2038-9b45-23cac89cb67a-+3, GPU-03f69c50-207a-2038-9b45-23cac89cb67a",
            "GPU-a::2-1, GPU-a",
            "MIG-GPU-aaa-1-2-3-4-5, MIG-GPU-aaa-1-2-3-4-5"})
    void physicalIdStripsOnlyASplitSuffixOfAFullUuid(String id, String physical) {
        assertThat(DeviceIds.physicalId(id)).isEqualTo(physical);
    }

    @Test
    void splitIdsAreDecimalSuffixesFromZero() {
        assertThat(DeviceIds.splitIds("GPU-a", 3)).containsExactly("GPU-a-0", "GPU-a-1", "GPU-a-2");
        assertThat(DeviceIds.splitIds("GPU-a", 0)).isEmpty();
    }

    @Test
    void runtimeIdsDropReplicaSuffixesAndDuplicates() {
        assertThat(DeviceIds.uniquePhysical(List.of("GPU-b::1", "GPU-a", "GPU-b::0", "GPU-a"))).containsExactly("GPU-b", "GPU-a");
    }
}
