package io.vgpu.gateway.core.score;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.vgpu.gateway.core.fit.DeviceFixtures.gpu;
import static org.assertj.core.api.Assertions.assertThat;

class NodeScoreTest {

    @Test
    void defaultScoreSumsUsageOverAllDevicesInFloat32() {
        float score = NodeScore.defaultScore(List.of(gpu("a").build(),
                gpu("b").used(5).mem(4000, 8000).cores(50, 100).build()));
        assertThat(score).isEqualTo(10f * ((float) 5 / 20 + (float) 50 / 200 + (float) 4000 / 16192));
    }

    @Test
    void anyZeroTotalMakesTheScoreZero() {
        assertThat(NodeScore.defaultScore(List.of(gpu("a").used(3).cores(0, 0).build()))).isZero();
        assertThat(NodeScore.defaultScore(List.of())).isZero();
    }

    @Test
    void binpackReturnsTheFullestNodeAndSpreadTheEmptiest() {
        List<NodeScore.Scored> nodes = List.of(new NodeScore.Scored("low", 1f), new NodeScore.Scored("high", 9f),
                new NodeScore.Scored("mid", 5f));
        assertThat(NodeScore.choose(nodes, "binpack").node()).isEqualTo("high");
        assertThat(NodeScore.choose(nodes, "anything-else").node()).isEqualTo("high");
        assertThat(NodeScore.choose(nodes, "spread").node()).isEqualTo("low");
        assertThat(NodeScore.choose(nodes, "spread").isTie()).isFalse();
    }

    @Test
    void tiesAreReportedAndResolvedToTheFirstTiedNode() {
        List<NodeScore.Scored> nodes = List.of(new NodeScore.Scored("a", 2f), new NodeScore.Scored("b", 7f),
                new NodeScore.Scored("c", 7f));
        NodeScore.Choice choice = NodeScore.choose(nodes, "binpack");
        assertThat(choice.node()).isEqualTo("b");
        assertThat(choice.isTie()).isTrue();
        assertThat(choice.tied()).containsExactly("b", "c");
    }
}
