package io.vgpu.hamicore;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** NVML's CUDA version numbers and the text forms a DRA attribute needs. */
class MajorMinorTest {

    @Test
    void decodesNvmlsCudaVersionNumber() {
        assertThat(MajorMinor.fromCudaVersion(12040)).isEqualTo(new MajorMinor(12, 4));
        assertThat(MajorMinor.fromCudaVersion(11080)).isEqualTo(new MajorMinor(11, 8));
        assertThat(MajorMinor.fromCudaVersion(12100)).isEqualTo(new MajorMinor(12, 10));
        assertThat(MajorMinor.fromCudaVersion(0)).isEqualTo(new MajorMinor(0, 0));
        assertThatThrownBy(() -> MajorMinor.fromCudaVersion(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void printsAndParsesMajorDotMinorAndWritesSemver() {
        assertThat(new MajorMinor(12, 10)).hasToString("12.10");
        assertThat(new MajorMinor(9, 0).semver()).isEqualTo("9.0.0");
        assertThat(MajorMinor.parse(" 8.6 ")).isEqualTo(new MajorMinor(8, 6));
        assertThat(MajorMinor.parse("12.10")).isEqualTo(new MajorMinor(12, 10));
        for (String bad : new String[] {"9", "9.0.0", "v9.0", "9.x", "", "-1.0"}) {
            assertThatThrownBy(() -> MajorMinor.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("\"" + bad + "\"");
        }
        assertThatThrownBy(() -> new MajorMinor(-1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
