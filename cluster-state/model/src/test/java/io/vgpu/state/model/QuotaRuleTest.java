package io.vgpu.state.model;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class QuotaRuleTest {

    @ParameterizedTest(name = "mem used {0}/{1} set={2} + {3}, cores used {4}/{5} set={6} + {7} -> {8}")
    @CsvSource({
            "1000, 2000, true, 1000, 0, 0, false, 0, true",
            "1000, 2000, true, 1001, 0, 0, false, 0, false",
            "0, 0, true, 1, 0, 0, false, 0, false",
            "5000, 0, false, 99999, 0, 0, false, 0, true",
            "0, 4096, true, 10, 90, 100, true, 20, false",
            "0, 4096, true, 10, 90, 100, true, 10, true"})
    void enforcesOnlyEntriesWithALimit(long memUsed, long memLimit, boolean memSet, long mem, long coreUsed,
                                       long coreLimit, boolean coreSet, long cores, boolean fits) {
        assertThat(QuotaRule.fits(new QuotaLimit(memUsed, memLimit, memSet), new QuotaLimit(coreUsed, coreLimit, coreSet),
                mem, cores)).isEqualTo(fits);
    }

    @ParameterizedTest(name = "{0} + {1} clamps to {2}")
    @CsvSource({"10, -20, 0", "10, 5, 15"})
    void usageNeverGoesNegative(long used, long delta, long expected) {
        assertThat(new QuotaLimit(used, 0, false).plus(delta).used()).isEqualTo(expected);
    }
}
