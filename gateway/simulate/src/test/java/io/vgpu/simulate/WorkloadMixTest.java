package io.vgpu.simulate;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WorkloadMixTest {

    @Test
    void parsesWeightsAndPicksByCumulativeWeight() {
        WorkloadMix mix = WorkloadMix.parse("whole=1, mem=3");
        assertThat(mix.total()).isEqualTo(4);
        assertThat(mix.pick(0)).isEqualTo(WorkloadMix.Kind.WHOLE);
        assertThat(mix.pick(1)).isEqualTo(WorkloadMix.Kind.MEM);
        assertThat(mix.pick(3)).isEqualTo(WorkloadMix.Kind.MEM);
    }

    @ParameterizedTest
    @ValueSource(strings = {"whole", "gpu=3", "whole=x", "whole=-1", "whole=0", ""})
    void rejectsBadMixesWithAClearMessage(String text) {
        assertThatThrownBy(() -> WorkloadMix.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageMatching(".*(kind=weight|unknown mix kind|not an integer|negative|positive weight).*");
    }

    @Test
    void defaultMixIsValid() {
        assertThat(WorkloadMix.parse(WorkloadMix.DEFAULT).total()).isEqualTo(100);
    }
}
