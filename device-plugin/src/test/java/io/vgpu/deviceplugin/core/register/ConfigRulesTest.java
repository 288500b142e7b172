package io.vgpu.deviceplugin.core.register;

import io.vgpu.deviceplugin.core.health.XidPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Per-node overrides and XID policy rules beyond the vectors. */
class ConfigRulesTest {

    private static final NvidiaSettings BASE = new NvidiaSettings("nvidia.com/gpu", 10, 1.0, 1.0, 0, "1", true, false);

    private static NodeConfigEntry entry(String name, Integer split, Double memory, String logLevel, Boolean numa,
                                         String mode, Boolean preferred, List<String> filter) {
        return new NodeConfigEntry(name, mode, split, memory, null, null, logLevel, numa, filter, List.of(), preferred);
    }

    @Test
    void zeroValuesNeverOverrideAsWithMergo() {
        NodeSettings s = NodeOverrides.apply(BASE, List.of(entry("n", 0, 0.0, "", false, "", null, List.of())), "n");
        assertThat(s.nvidia()).isEqualTo(BASE);
        assertThat(s.operatingMode()).isEqualTo("hami-core");
        assertThat(s.enableGetPreferredAllocation()).isFalse();
    }

    @Test
    void everyMatchingEntryAppliesInOrder() {
        NodeSettings s = NodeOverrides.apply(BASE, List.of(
                entry("n", 4, null, null, null, "custom", true, List.of("GPU-x")),
                entry("other", 7, null, null, null, "mig", true, List.of()),
                entry("n", null, 1.5, "3", null, null, null, List.of())), "n");
        assertThat(s.nvidia().deviceSplitCount()).isEqualTo(4);
        assertThat(s.nvidia().deviceMemoryScaling()).isEqualTo(1.5);
        assertThat(s.nvidia().libCudaLogLevel()).isEqualTo("3");
        assertThat(s.operatingMode()).as("an empty mode keeps the earlier one").isEqualTo("custom");
        assertThat(s.enableGetPreferredAllocation()).as("assigned as is by the last entry").isFalse();
        assertThat(s.filter().uuids()).as("an empty filter does not replace").containsExactly("GPU-x");
    }

    @Test
    void withoutAPerNodeFileTheModeIsEmptyAsInHami() {
        NodeSettings s = NodeOverrides.withoutNodeConfig(BASE);
        assertThat(s.operatingMode()).isEmpty();
        assertThat(s.nvidia()).isEqualTo(BASE);
        assertThat(RegisterSettings.of(s).operatingMode()).isEmpty();
    }

    static Stream<Arguments> xids() {
        return Stream.of(
                Arguments.of("defaults: application XID", "", "", 43L, true),
                Arguments.of("defaults: hardware XID", "", "", 79L, false),
                Arguments.of("disable one", "79", "", 79L, true),
                Arguments.of("disable all but enable one", "all", "79", 79L, false),
                Arguments.of("disable all", "all", "", 79L, true),
                Arguments.of("enable an application XID", "", "13", 13L, false),
                Arguments.of("enable all beats disable", "48", "all", 48L, false),
                Arguments.of("upper case and spaces", " ALL ", "", 1L, true),
                Arguments.of("0 counts as all, as in NVIDIA's parser", "0", "", 48L, true));
    }

    @ParameterizedTest(name = "{0}: DP_DISABLE={1} DP_ENABLE={2} xid {3} disabled={4}")
    @MethodSource("xids")
    void xidPolicyFollowsNvidiaPrecedence(String name, String disable, String enable, long xid, boolean disabled) {
        assertThat(XidPolicy.fromEnv(disable, enable).isDisabled(xid)).isEqualTo(disabled);
    }

    @Test
    void unsetEnvironmentMeansDefaults() {
        XidPolicy p = XidPolicy.fromEnv(null, null);
        assertThat(p.allDisabled()).isFalse();
        assertThat(XidPolicy.APPLICATION_XIDS).allMatch(p::isDisabled);
    }
}
