package io.vgpu.state.dra;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class DraNamesTest {

    @ParameterizedTest
    @CsvSource({"0,gpu-0", "7,gpu-7", "128,gpu-128"})
    void deviceNameRoundTripsThroughTheMinorNumber(int minor, String name) {
        assertThat(DraNames.deviceName(minor)).isEqualTo(name);
        assertThat(DraNames.minorOf(name)).isEqualTo(minor);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "gpu-", "gpu-01", "gpu--1", "gpu-1a", "hami-gpu-0", "GPU-0", "gpu-١", "gpu-9999999999"})
    void refusesNamesThatAreNotOurs(String name) {
        assertThat(DraNames.minorOf(name)).isEqualTo(-1);
    }
}
