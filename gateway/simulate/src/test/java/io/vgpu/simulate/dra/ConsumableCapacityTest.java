package io.vgpu.simulate.dra;

import static io.vgpu.simulate.dra.DraFixtures.q;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicyBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;
import io.vgpu.simulate.dra.cel.QuantityValue;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Table tests of spec §3.4's arithmetic; each row's comment works the expected value out. */
class ConsumableCapacityTest {

    private static final long MIB = 1 << 20;

    /** memory 80Gi, default whole value, validRange{min 1Mi, step 1Mi} (our driver). */
    private static DeviceCapacity memory() {
        return new DeviceCapacityBuilder().withValue(q("80Gi")).withRequestPolicy(new CapacityRequestPolicyBuilder()
                .withDefault(q("80Gi")).withNewValidRange().withMin(q("1Mi")).withStep(q("1Mi")).endValidRange().build()).build();
    }

    /** cores 100, default 0, validRange{0, 100, step 1}. */
    private static DeviceCapacity cores() {
        return new DeviceCapacityBuilder().withValue(q("100")).withRequestPolicy(new CapacityRequestPolicyBuilder()
                .withDefault(q("0")).withNewValidRange().withMin(q("0")).withMax(q("100")).withStep(q("1")).endValidRange().build())
                .build();
    }

    /** slots 1000 for split 4: default 250, validValues [250, 1000]. */
    private static DeviceCapacity slots() {
        return new DeviceCapacityBuilder().withValue(q("1000")).withRequestPolicy(new CapacityRequestPolicyBuilder()
                .withDefault(q("250")).withValidValues(q("250"), q("1000")).build()).build();
    }

    /** validRange{min 10, max 50} without a step, default 10. */
    private static DeviceCapacity noStep() {
        return new DeviceCapacityBuilder().withValue(q("100")).withRequestPolicy(new CapacityRequestPolicyBuilder()
                .withDefault(q("10")).withNewValidRange().withMin(q("10")).withMax(q("50")).endValidRange().build()).build();
    }

    private static DeviceCapacity plain(String value) {
        return new DeviceCapacityBuilder().withValue(q(value)).build();
    }

    static Stream<Arguments> uses() {
        return Stream.of(
                // not requested -> policy default
                Arguments.of("memory default", memory(), null, String.valueOf(80L << 30)),
                Arguments.of("cores default", cores(), null, "0"),
                Arguments.of("slots default", slots(), null, "250"),
                // not requested, no policy -> the full value
                Arguments.of("no policy, not requested", plain("100"), null, "100"),
                // requested, no policy -> as is
                Arguments.of("no policy, requested", plain("100"), "37", "37"),
                // 4000000000 - 1Mi = 3998951424; / 1Mi = 3813.697 -> ceil 3814; 1Mi + 3814 Mi = 3815 Mi = 4000317440
                Arguments.of("memory rounded up to the next MiB", memory(), "4000000000", "4000317440"),
                // already on the grid: 1Mi + ceil((4Gi - 1Mi) / 1Mi) Mi = 4096 Mi
                Arguments.of("memory on the grid", memory(), "4Gi", String.valueOf(4096 * MIB)),
                // below min -> min
                Arguments.of("memory below min", memory(), "1", String.valueOf(MIB)),
                // 30.5 -> 0 + ceil(30.5 / 1) * 1 = 31
                Arguments.of("cores rounded up", cores(), "30500m", "31"),
                // above max: 0 + ceil(150) = 150, not rounded down (eligibility is checked after)
                Arguments.of("cores above max", cores(), "150", "150"),
                // validValues: smallest listed >= request: 1 -> 250, 251 -> 1000
                Arguments.of("slots up to the share", slots(), "1", "250"),
                Arguments.of("slots up to exclusive", slots(), "251", "1000"),
                // above every listed value -> the request itself (then ineligible)
                Arguments.of("slots above the list", slots(), "1001", "1001"),
                // no step: max(min, request)
                Arguments.of("range without step, below min", noStep(), "3", "10"),
                Arguments.of("range without step, inside", noStep(), "33", "33"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("uses")
    void useFollowsThePolicy(String name, DeviceCapacity cap, String requested, String expected) {
        QuantityValue use = ConsumableCapacity.use(requested == null ? null : QuantityValue.parse(requested), cap);

        assertThat(use.value()).isEqualByComparingTo(expected);
    }

    static Stream<Arguments> eligibility() {
        return Stream.of(
                // 4Gi + 0 + 250 on an empty card: fits
                Arguments.of("a share fits an empty card", Map.of("memory", "4Gi"), Map.of(), true),
                // an unknown capacity name -> ineligible whatever the numbers
                Arguments.of("unknown capacity name", Map.of("vram", "1Gi"), Map.of(), false),
                // cores 150 > max 100 -> ineligible
                Arguments.of("above max", Map.of("cores", "150"), Map.of(), false),
                // slots 1001 is not a listed value -> ineligible
                Arguments.of("not a listed value", Map.of("slots", "1001"), Map.of(), false),
                // slots: 750 used + 250 = 1000 <= 1000 -> fits
                Arguments.of("slots exactly full", Map.of(), Map.of("slots", "750"), true),
                // slots: 1000 used + 250 > 1000 -> ineligible
                Arguments.of("slots over", Map.of(), Map.of("slots", "1000"), false),
                // an exclusive share (1000) after one ordinary share: 250 + 1000 > 1000 -> ineligible
                Arguments.of("exclusive on a used card", Map.of("slots", "1000"), Map.of("slots", "250"), false),
                // memory: 76Gi used + 4Gi = 80Gi <= 80Gi -> fits; the default (whole card) would not
                Arguments.of("memory exactly full", Map.of("memory", "4Gi"), Map.of("memory", String.valueOf(76L << 30)), true),
                Arguments.of("memory default on a used card", Map.of(), Map.of("memory", "1"), false),
                // cores: 80 used + 30 > 100 -> ineligible
                Arguments.of("cores over", Map.of("cores", "30"), Map.of("cores", "80"), false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("eligibility")
    void consumeChecksPolicyAndTotals(String name, Map<String, String> requests, Map<String, String> used, boolean fits) {
        Map<String, DeviceCapacity> caps = Map.of("memory", memory(), "cores", cores(), "slots", slots());
        Map<String, Quantity> req = new HashMap<>();
        requests.forEach((k, v) -> req.put(k, q(v)));
        Map<String, BigDecimal> sums = new HashMap<>();
        used.forEach((k, v) -> sums.put(k, new BigDecimal(v)));

        Optional<Map<String, QuantityValue>> consumed = ConsumableCapacity.consume(ConsumableCapacity.parse(caps), req, sums);

        assertThat(consumed.isPresent()).isEqualTo(fits);
        consumed.ifPresent(c -> assertThat(c).containsOnlyKeys("memory", "cores", "slots"));
    }
}
