package io.vgpu.simulate;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class SimulatedDevicePluginTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "one container        | GPU-a,NVIDIA,1000,30:;                      | ;",
        "two containers       | GPU-a,NVIDIA,1000,30:;GPU-b,NVIDIA,10,0:;   | ;;",
        "init container first | ;GPU-a,NVIDIA,1000,30:GPU-b,NVIDIA,1000,30:; | ;;",
        "already erased       | ;;                                           | ;;",
        "nothing              | ''                                           | ''",
    })
    void erasesEveryContainerEntryAsThePluginDoesAfterAllocate(String name, String toAllocate, String erased) {
        assertThat(SimulatedDevicePlugin.erased(toAllocate)).isEqualTo(erased);
    }
}
