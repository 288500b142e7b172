package io.vgpu.gateway.scheduling;

import io.vertx.core.Future;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vgpu.gateway.core.port.EventSink;
import io.vgpu.gateway.core.quota.QuotaBook;
import io.vgpu.gateway.core.reason.NodeReason;
import io.vgpu.gateway.extender.ExtenderFilterResult;
import io.vgpu.gateway.testing.InMemoryClusterState;
import io.vgpu.state.model.QuotaLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;

import static io.vgpu.gateway.scheduling.FilterFixtures.filter;
import static io.vgpu.gateway.scheduling.FilterFixtures.pod;
import static io.vgpu.gateway.scheduling.FilterFixtures.quotaBook;
import static io.vgpu.gateway.scheduling.FilterFixtures.stateWith;
import static io.vgpu.gateway.testflow.TestFlow.finish;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shared quota map is reserved before the node: a replica whose local quota book has not seen another
 * replica's pod yet still cannot exceed the namespace's quota.
 */
@ExtendWith(VertxExtension.class)
class FilterServiceQuotaTest {

    private static InMemoryClusterState a100Node() {
        return stateWith(FilterFixtures.card("GPU-a", 0, 80_000, "NVIDIA A100"));
    }

    @Test
    void secondPodOverTheSharedQuotaIsRefusedEvenWhenTheLocalBookLags(VertxTestContext ctx) {
        InMemoryClusterState state = a100Node();
        state.setQuotaLimits("team", new QuotaLimits(6000, true, 0, false));
        // the local book knows the limit but never learns of the first pod (a lagging replica)
        QuotaBook lagging = quotaBook();
        lagging.setLimit("team", "nvidia.com/gpumem", 6000);
        FilterService service = FilterFixtures.service(state, lagging, new AcceptingPodWriter(), EventSink.NONE);

        Future<List<ExtenderFilterResult>> answers = filter(service, pod("a", 4000))
                .compose(first -> filter(service, pod("b", 4000))
                        .compose(second -> filter(service, pod("c", 2000))
                                .map(third -> List.of(first, second, third))));

        finish(ctx, answers, results -> {
            ExtenderFilterResult second = results.get(1);
            assertThat(results.get(0).nodeNames()).containsExactly("node1");
            assertThat(second.nodeNames()).isNull();
            assertThat(second.failedNodes()).containsEntry("node1", NodeReason.QUOTA_EXCEEDED.hamiText());
            assertThat(results.get(2).nodeNames()).containsExactly("node1");
            assertThat(state.quota("team").memory().used()).isEqualTo(6000);
            assertThat(state.node("node1").devices().get(0).usedmem()).isEqualTo(6000);
        });
    }

    @Test
    void namespacesWithoutALimitNeverTouchTheQuotaMap(VertxTestContext ctx) {
        InMemoryClusterState state = a100Node();
        FilterService service = FilterFixtures.service(state, quotaBook(), new AcceptingPodWriter(), EventSink.NONE);
        finish(ctx, filter(service, pod("a", 4000)), result -> {
            assertThat(result.nodeNames()).containsExactly("node1");
            assertThat(state.quota("team") == null || state.quota("team").charges().isEmpty()).as("no quota charge")
                    .isTrue();
        });
    }
}
