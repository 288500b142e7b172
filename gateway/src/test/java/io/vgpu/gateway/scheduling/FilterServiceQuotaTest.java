package io.vgpu.gateway.scheduling;

import io.vgpu.gateway.core.Container;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.filter.FilterConfig;
import io.vgpu.gateway.core.filter.FilterDecider;
import io.vgpu.gateway.core.port.EventSink;
import io.vgpu.gateway.core.quota.QuotaBook;
import io.vgpu.gateway.extender.ExtenderArgs;
import io.vgpu.gateway.extender.ExtenderFilterResult;
import io.vgpu.gateway.simulate.InMemoryClusterState;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.NodeInventory;
import io.vgpu.state.model.QuotaLimits;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shared quota map is reserved before the node: a replica whose local quota book has not seen another
 * replica's pod yet still cannot exceed the namespace's quota.
 */
class FilterServiceQuotaTest {

    private static PodSpec pod(String name, int mem) {
        return new PodSpec(name, "team", "uid-" + name, "hami-scheduler", "", null, Map.of(), Map.of(), List.of(),
                List.of(new Container("c", Map.of("nvidia.com/gpu", "1", "nvidia.com/gpumem", Integer.toString(mem)),
                        Map.of(), false, List.of())));
    }

    private static ExtenderFilterResult filter(FilterService service, PodSpec pod) throws Exception {
        return service.filter(new ExtenderArgs(pod, List.of("node1"), null)).toCompletionStage()
                .toCompletableFuture().get();
    }

    @Test
    void secondPodOverTheSharedQuotaIsRefusedEvenWhenTheLocalBookLags() throws Exception {
        InMemoryClusterState state = new InMemoryClusterState();
        state.registerNode(new NodeInventory("node1", List.of(new GpuDevice("GPU-a", 0, 10, 80_000, 100,
                "NVIDIA A100", 0, "hami-core", List.of(), true)), Map.of(), Map.of()));
        state.setQuotaLimits("team", new QuotaLimits(6000, true, 0, false));
        // the local book knows the limit but never learns of the first pod (a lagging replica)
        QuotaBook lagging = new QuotaBook("nvidia.com/gpumem", "nvidia.com/gpucores", 1);
        lagging.setLimit("team", "nvidia.com/gpumem", 6000);
        FilterService service = new FilterService(new FilterDecider(FilterConfig.defaults()), state, lagging,
                new AcceptingPodWriter(), EventSink.NONE, SchedulingConfig.DEFAULTS, Clock.systemUTC());

        ExtenderFilterResult first = filter(service, pod("a", 4000));
        ExtenderFilterResult second = filter(service, pod("b", 4000));
        ExtenderFilterResult third = filter(service, pod("c", 2000));

        assertThat(first.nodeNames()).containsExactly("node1");
        assertThat(second.nodeNames()).isNull();
        assertThat(second.failedNodes()).containsEntry("node1", FilterService.QUOTA_EXCEEDED);
        assertThat(third.nodeNames()).containsExactly("node1");
        assertThat(state.quota("team").memory().used()).isEqualTo(6000);
        assertThat(state.node("node1").devices().get(0).usedmem()).isEqualTo(6000);
    }

    @Test
    void namespacesWithoutALimitNeverTouchTheQuotaMap() throws Exception {
        InMemoryClusterState state = new InMemoryClusterState();
        state.registerNode(new NodeInventory("node1", List.of(new GpuDevice("GPU-a", 0, 10, 80_000, 100,
                "NVIDIA A100", 0, "hami-core", List.of(), true)), Map.of(), Map.of()));
        FilterService service = new FilterService(new FilterDecider(FilterConfig.defaults()), state,
                new QuotaBook("nvidia.com/gpumem", "nvidia.com/gpucores", 1), new AcceptingPodWriter(), EventSink.NONE,
                SchedulingConfig.DEFAULTS, Clock.systemUTC());
        assertThat(filter(service, pod("a", 4000)).nodeNames()).containsExactly("node1");
        assertThat(state.quota("team") == null || state.quota("team").charges().isEmpty()).as("no quota charge").isTrue();
    }
}
