package io.vgpu.gateway.core.port;

import io.vgpu.gateway.core.reason.DeviceRejection;
import io.vgpu.gateway.core.reason.NodeReason;
import io.vgpu.gateway.core.reason.NodeRejection;
import io.vgpu.state.model.FitReason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class SchedulerEventTest {

    @Test
    void filteringSucceededListsFitsWorstFirstAsHamiSortsThem() {
        SchedulerEvent e = SchedulerEvent.filteringSucceeded("n3", 5,
                List.of(new ScoredNode("n3", 9.5f), new ScoredNode("n1", 3f), new ScoredNode("n2", 0f)));

        assertThat(e).isEqualTo(new SchedulerEvent("FilteringSucceed", SchedulerEvent.Type.Normal,
                "find fit node(n3), 2 nodes not fit, 3 nodes fit(n2:0.00,n1:3.00,n3:9.50)"));
    }

    @Test
    void filteringSucceededPrintsEachScoreOfARunOfEqualScoresAndEveryChangeBetweenThem() {
        // the message reuses one score text along a run of equal scores: every change of score must show
        SchedulerEvent e = SchedulerEvent.filteringSucceeded("a", 7, List.of(new ScoredNode("a", 2.5f),
                new ScoredNode("b", 2.5f), new ScoredNode("c", 1f), new ScoredNode("d", 1f), new ScoredNode("e", 0f),
                new ScoredNode("f", -0f), new ScoredNode("g", -0.5f)));

        assertThat(e.message()).isEqualTo("find fit node(a), 0 nodes not fit, 7 nodes fit(g:-0.50,f:0.00,e:0.00,"
                + "d:1.00,c:1.00,b:2.50,a:2.50)");
    }

    @Test
    void filteringSucceededWithOneFitListsIt() {
        assertThat(SchedulerEvent.filteringSucceeded("only", 1, List.of(new ScoredNode("only", 4f))).message())
                .isEqualTo("find fit node(only), 0 nodes not fit, 1 nodes fit(only:4.00)");
    }

    static Stream<Arguments> scores() {
        return Stream.of(
                arguments(0.125f, "0.12"),   // exact binary tie: Go rounds half to even
                arguments(0.375f, "0.38"),
                arguments(1.005f, "1.00"),   // 1.00499999523... in float32
                arguments(6.6666665f, "6.67"),
                arguments(-0.5f, "-0.50"),
                arguments(30f, "30.00"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("scores")
    void scoresPrintLikeGoPercentTwoF(float score, String expected) {
        assertThat(SchedulerEvent.twoDecimals(score)).isEqualTo(expected);
    }

    @Test
    void filteringFailedGroupsNodesByReasonWordThenSummarises() {
        Map<String, NodeRejection> failed = new LinkedHashMap<>();
        failed.put("b", new DeviceRejection(Map.of(FitReason.CardInsufficientMemory, 1), 1));
        failed.put("a", new DeviceRejection(Map.of(FitReason.CardInsufficientMemory, 2, FitReason.CardNotHealth, 1), 2));
        failed.put("c", NodeReason.NODE_UNREGISTERED);

        List<SchedulerEvent> events = SchedulerEvent.filteringFailed(failed, 3);

        assertThat(events).extracting(SchedulerEvent::message).containsExactly(
                "2 nodes CardInsufficientMemory(a,b)",
                "1 nodes CardNotHealth(a)",
                "no available node, 3 nodes do not meet");
        assertThat(events).extracting(SchedulerEvent::type).containsOnly(SchedulerEvent.Type.Warning);
        assertThat(events).extracting(SchedulerEvent::reason).containsOnly("FilteringFailed");
    }

    @Test
    void bindingEventsCarryHamisTexts() {
        assertThat(SchedulerEvent.bindingSucceeded("n1", "ns", "p").message())
                .isEqualTo("Successfully binding node [n1] to ns/p");
        assertThat(SchedulerEvent.bindingFailed("node n1 is locked: node lock contention"))
                .isEqualTo(new SchedulerEvent("BindingFailed", SchedulerEvent.Type.Warning,
                        "node n1 is locked: node lock contention"));
    }
}
