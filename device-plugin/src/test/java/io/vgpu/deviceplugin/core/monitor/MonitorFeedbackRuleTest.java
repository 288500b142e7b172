package io.vgpu.deviceplugin.core.monitor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.vgpu.deviceplugin.core.monitor.FeedbackRule.ObserveResult;
import io.vgpu.deviceplugin.core.monitor.MonitorUsageFixtures.FakeUsage;

import static io.vgpu.deviceplugin.core.monitor.MonitorUsageFixtures.usage;
import static org.assertj.core.api.Assertions.assertThat;

class MonitorFeedbackRuleTest {

    private static final String GPU_A = "GPU-aaaaaaaa-0000-0000-0000-000000000001";
    private static final String GPU_B = "GPU-bbbbbbbb-0000-0000-0000-000000000002";

    /** One container before the tick: priority, recent_kernel, switch, and its GPUs by slot. */
    record Before(int priority, int recentKernel, int utilizationSwitch, List<String> gpus) {
        FakeUsage build() {
            FakeUsage u = usage().priority(priority).recentKernel(recentKernel).utilizationSwitch(utilizationSwitch);
            for (int slot = 0; slot < gpus.size(); slot++) {
                if (gpus.get(slot) != null) {
                    u.uuid(slot, gpus.get(slot));
                }
            }
            return u;
        }
    }

    /** recent_kernel and utilization_switch after the tick. */
    record After(int recentKernel, int utilizationSwitch) {
    }

    static Before c(int priority, int recentKernel, int utilizationSwitch, String... gpus) {
        return new Before(priority, recentKernel, utilizationSwitch, Arrays.asList(gpus));
    }

    static After a(int recentKernel, int utilizationSwitch) {
        return new After(recentKernel, utilizationSwitch);
    }

    static Stream<Arguments> ticks() {
        return Stream.of(
                Arguments.of("a fresh region alone on its GPU is decremented and unthrottled",
                        List.of(c(1, 2, 1, GPU_A)), List.of(a(1, 0))),
                Arguments.of("recent_kernel 1 becomes 0 and does not count as active",
                        List.of(c(1, 1, 1, GPU_A), c(1, 2, 1, GPU_A)), List.of(a(0, 0), a(1, 0))),
                Arguments.of("two active containers of one priority on a GPU keep throttling",
                        List.of(c(1, 2, 0, GPU_A), c(1, 3, 0, GPU_A)), List.of(a(1, 1), a(2, 1))),
                Arguments.of("an active higher priority blocks and throttles the lower one",
                        List.of(c(0, 2, 1, GPU_A), c(1, 2, 0, GPU_A)), List.of(a(1, 0), a(-1, 1))),
                Arguments.of("a blocked container stays blocked while the blocker is active",
                        List.of(c(0, 3, 0, GPU_A), c(1, -1, 1, GPU_A)), List.of(a(2, 0), a(-1, 1))),
                Arguments.of("a blocked container is released once the blocker is idle",
                        List.of(c(0, 1, 0, GPU_A), c(1, -1, 1, GPU_A)), List.of(a(0, 0), a(0, 0))),
                Arguments.of("negative priority is never counted and never blocked",
                        List.of(c(-1, 2, 1, GPU_A), c(1, 2, 1, GPU_A)), List.of(a(1, 0), a(1, 0))),
                Arguments.of("negative priority beside an active priority 0 is still not blocked",
                        List.of(c(0, 2, 1, GPU_A), c(-1, 2, 1, GPU_A)), List.of(a(1, 0), a(1, 0))),
                Arguments.of("containers on different GPUs do not interact",
                        List.of(c(0, 2, 1, GPU_A), c(1, 2, 1, GPU_B)), List.of(a(1, 0), a(1, 0))),
                Arguments.of("sharing the second GPU of a multi-GPU container counts",
                        List.of(c(0, 2, 1, GPU_B, GPU_A), c(1, 2, 1, GPU_A)), List.of(a(1, 0), a(-1, 1))),
                Arguments.of("an idle container is left alone except for the switch",
                        List.of(c(1, 0, 1, GPU_A)), List.of(a(0, 0))),
                Arguments.of("an idle container beside an active one of its priority is not throttled",
                        List.of(c(1, 0, 0, GPU_A), c(1, 2, 0, GPU_A)), List.of(a(0, 0), a(1, 0))),
                Arguments.of("an uninitialised UUID slot is skipped, later slots still count",
                        List.of(c(0, 2, 1, null, GPU_A), c(1, 2, 0, GPU_A)), List.of(a(1, 0), a(-1, 1))),
                Arguments.of("a large priority grows the census and still sees more important ones",
                        List.of(c(0, 2, 1, GPU_A), c(7, 2, 0, GPU_A)), List.of(a(1, 0), a(-1, 1))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ticks")
    void oneTickFollowsHamiObserve(String name, List<Before> before, List<After> expected) {
        List<FakeUsage> regions = before.stream().map(Before::build).toList();

        FeedbackRule.observe(regions);

        assertThat(regions.stream().map(r -> a(r.recentKernel(), r.utilizationSwitch())).toList())
                .isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ticks")
    void outcomeDoesNotDependOnContainerOrder(String name, List<Before> before, List<After> expected) {
        List<FakeUsage> regions = before.stream().map(Before::build).toList();
        List<FakeUsage> reversed = new ArrayList<>(regions);
        Collections.reverse(reversed);

        FeedbackRule.observe(reversed);

        assertThat(regions.stream().map(r -> a(r.recentKernel(), r.utilizationSwitch())).toList())
                .isEqualTo(expected);
    }

    @Test
    void uuidsAreComparedOnAll96Bytes() {
        // same first 40 bytes, different bytes after: HAMi keys on the full entry, so no sharing
        byte[] first = MonitorUsageFixtures.uuidBytes(GPU_A + "-x");
        byte[] second = MonitorUsageFixtures.uuidBytes(GPU_A + "-y");
        FakeUsage hi = usage().priority(0).recentKernel(2).utilizationSwitch(1).uuidBytes(0, first);
        FakeUsage lo = usage().priority(1).recentKernel(2).utilizationSwitch(1).uuidBytes(0, second);

        FeedbackRule.observe(List.of(hi, lo));

        assertThat(lo.recentKernel()).isEqualTo(1);
        assertThat(lo.utilizationSwitch()).isZero();
    }

    @Test
    void reportsCensusAndWrites() {
        FakeUsage hi = c(0, 2, 1, GPU_A).build();
        FakeUsage lo = c(1, 2, 0, GPU_A).build();

        ObserveResult result = FeedbackRule.observe(List.of(hi, lo));

        assertThat(result.containers()).isEqualTo(2);
        assertThat(result.census().asMap()).containsOnlyKeys(hi.deviceKey(0));
        assertThat(result.census().count(hi.deviceKey(0), 0)).isEqualTo(1);
        assertThat(result.census().count(hi.deviceKey(0), 1)).isEqualTo(1);
        assertThat(result.blocked()).isEqualTo(1);
        assertThat(result.throttled()).isEqualTo(1);
        assertThat(result.unthrottled()).isEqualTo(1);
        assertThat(result.released()).isZero();
        assertThat(result.writes()).isEqualTo(3);
    }

    @Test
    void secondTickWithoutNewKernelsReleasesEverything() {
        FakeUsage hi = c(0, 2, 1, GPU_A).build();
        FakeUsage lo = c(1, 2, 1, GPU_A).build();

        FeedbackRule.observe(List.of(hi, lo));
        FeedbackRule.observe(List.of(hi, lo));

        // hi: 2 -> 1 -> 0 (no longer active); lo was blocked (-1) and is released to 0
        assertThat(a(hi.recentKernel(), hi.utilizationSwitch())).isEqualTo(a(0, 0));
        assertThat(a(lo.recentKernel(), lo.utilizationSwitch())).isEqualTo(a(0, 0));
    }

    @Test
    void noContainersIsANoOp() {
        ObserveResult result = FeedbackRule.observe(List.of());
        assertThat(result.census().isEmpty()).isTrue();
        assertThat(result.writes()).isZero();
    }
}
