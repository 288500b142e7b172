package io.vgpu.simulate.dra.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Kubernetes quantity syntax and canonical text; semver parsing and precedence. */
class QuantityAndSemverTest {

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource({
        "80Gi, 85899345920, 80Gi",
        "4000317440, 4000317440, 4000317440",
        "3815Mi, 4000317440, 3815Mi",
        "1.5k, 1500, 1500",
        "1e3, 1000, 1k",
        "100m, 0.1, 100m",
        "-2, -2, -2",
        "0.5Ki, 512, 512",
        "1n, 0.000000001, 1n",
        "0.0000000001, 0.000000001, 1n",
    })
    void parsesAndPrintsCanonically(String text, String value, String canonical) {
        QuantityValue q = QuantityValue.parse(text);

        assertThat(q.value()).isEqualByComparingTo(value);
        assertThat(q).hasToString(canonical);
    }

    @ParameterizedTest
    @CsvSource({"'1.5 Gi'", "Gi", "1GB", "'--1'", "1.2.3", "''", "1e"})
    void refusesWhatIsNotAQuantity(String text) {
        assertThatThrownBy(() -> QuantityValue.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a quantity");
    }

    @ParameterizedTest(name = "{0} < {1}")
    @CsvSource({
        "1.0.0-alpha, 1.0.0-alpha.1",
        "1.0.0-alpha.1, 1.0.0-alpha.beta",
        "1.0.0-alpha.beta, 1.0.0-beta",
        "1.0.0-beta.2, 1.0.0-beta.11",
        "1.0.0-rc.1, 1.0.0",
        "1.9.0, 1.10.0",
        "550.54.15, 560.0.0",
    })
    void semverPrecedence(String lower, String higher) {
        assertThat(Semver.parse(lower).compareTo(Semver.parse(higher))).isNegative();
        assertThat(Semver.parse(higher).compareTo(Semver.parse(lower))).isPositive();
    }

    @ParameterizedTest
    @CsvSource({"1.2", "01.2.3", "1.2.3-01", "v1.2.3", "1.2.3-", "a.b.c"})
    void strictSemverRefuses(String text) {
        assertThat(Semver.isSemver(text, false)).isFalse();
    }

    @ParameterizedTest
    @CsvSource({"v1.2, 1.2.0", "01.02.03, 1.2.3", "v2, 2.0.0", "1.2.3+build.5, 1.2.3"})
    void normalizedSemverAcceptsLooseForms(String text, String equivalent) {
        assertThat(Semver.parseNormalized(text)).isEqualTo(Semver.parse(equivalent));
    }
}
