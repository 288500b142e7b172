package io.vgpu.state.dra;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class QuantityTest {

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource({"80Gi, 85899345920", "1Mi, 1048576", "100, 100", "1k, 1000", "1.5Gi, 1610612736", "500m, 0.5",
            "1e3, 1000", "2E-3, 0.002", "0, 0", "+7, 7", ".5, 0.5", "1., 1"})
    void equalsNumericallyWhateverTheText(String text, String number) {
        assertThat(Quantity.parse(text)).isEqualTo(Quantity.parse(number)).hasSameHashCodeAs(Quantity.parse(number));
        assertThat(Quantity.parse(text).toString()).isEqualTo(text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "80 Gi", "80GB", "Gi", "1.2.3", "0x10", "1Mi ", "ten"})
    void refusesWhatIsNoQuantity(String text) {
        assertThatThrownBy(() -> Quantity.parse(text)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(text);
    }

    @ParameterizedTest(name = "{0} bytes are written {1}")
    @CsvSource({"85899345920, 80Gi", "1048576, 1Mi", "42284875776, 40326Mi", "1024, 1Ki", "1000, 1000", "0, 0",
            "1152921504606846976, 1Ei"})
    void writesByteCountsAsTheApiServerDoes(long bytes, String text) {
        assertThat(Quantity.bytes(bytes).toString()).isEqualTo(text);
        assertThat(Quantity.parse(text)).isEqualTo(Quantity.bytes(bytes));
    }

    @ParameterizedTest(name = "{0} on the grid {1} + n x {2}: {3}")
    @CsvSource({"4Gi, 1Mi, 1Mi, true", "4000000000, 1Mi, 1Mi, false", "0, 0, 1, true", "98, 5, 2, false", "99, 5, 2, true"})
    void knowsTheStepGrid(String value, String origin, String step, boolean onGrid) {
        assertThat(Quantity.parse(value).onGrid(Quantity.parse(origin), Quantity.parse(step))).isEqualTo(onGrid);
    }
}
