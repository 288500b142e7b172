package io.vgpu.gateway.scheduling;

import io.vertx.core.Future;
import io.vgpu.gateway.core.Container;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.filter.FilterConfig;
import io.vgpu.gateway.core.filter.FilterDecider;
import io.vgpu.gateway.core.port.EventSink;
import io.vgpu.gateway.core.port.PodWriter;
import io.vgpu.gateway.core.quota.QuotaBook;
import io.vgpu.gateway.extender.ExtenderFilterResult;
import io.vgpu.gateway.extender.FilterResponses;
import io.vgpu.gateway.testing.InMemoryClusterState;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.NodeInventory;
import io.vgpu.state.model.fixtures.GpuFixtures;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What the {@link FilterService} tests share: one node {@code node1} in an in-process state, pods in namespace
 * {@code team} asking for one GPU and some memory, and a filter over {@code node1} answered as a future (the tests
 * finish it with {@code TestFlow}).
 */
final class FilterFixtures {

    static final String NODE = "node1";

    private FilterFixtures() {
    }

    /** A HAMi-core card of {@code memMiB} MiB, 10 slots, 100 cores. */
    static GpuDevice card(String uuid, int index, int memMiB, String model) {
        return GpuFixtures.card(uuid).index(index).memMiB(memMiB).type(model).build();
    }

    /** An in-process state with {@link #NODE} registered with {@code cards}. */
    static InMemoryClusterState stateWith(GpuDevice... cards) {
        InMemoryClusterState state = new InMemoryClusterState();
        state.registerNode(new NodeInventory(NODE, List.of(cards), Map.of(), Map.of()));
        return state;
    }

    /** A quota book over NVIDIA's default resource names, no limits. */
    static QuotaBook quotaBook() {
        return new QuotaBook("nvidia.com/gpumem", "nvidia.com/gpucores", 1);
    }

    /** The service with the default decider and scheduling settings. */
    static FilterService service(ClusterState state, QuotaBook quotas, PodWriter pods, EventSink events) {
        return new FilterService(new FilterDecider(FilterConfig.defaults()), state, quotas, pods, events,
                SchedulingConfig.DEFAULTS, Clock.systemUTC());
    }

    /** The UID of the fixture pod {@code name}: a UUID derived from the name, as stable as the name. */
    static String uidOf(String name) {
        return UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)).toString();
    }

    /** Pod {@code name} (UID {@link #uidOf}) in {@code team}, one GPU with {@code memMiB} MiB. */
    static PodSpec pod(String name, int memMiB) {
        return pod(name, memMiB, Map.of());
    }

    /** The same pod with {@code annotations} (what a filter wrote, as kube-scheduler's copy shows it). */
    static PodSpec pod(String name, int memMiB, Map<String, String> annotations) {
        return new PodSpec(name, "team", uidOf(name), "hami-scheduler", "", null, annotations, Map.of(), List.of(),
                List.of(new Container("c", Map.of("nvidia.com/gpu", "1", "nvidia.com/gpumem",
                        Integer.toString(memMiB)), Map.of(), false, List.of())));
    }

    /** Filters {@code pod} over {@link #NODE} and answers the outcome as the extender does. */
    static Future<ExtenderFilterResult> filter(FilterService service, PodSpec pod) {
        return service.filter(pod, List.of(NODE)).map(outcome -> FilterResponses.cacheMode(outcome, List.of(NODE)));
    }
}
