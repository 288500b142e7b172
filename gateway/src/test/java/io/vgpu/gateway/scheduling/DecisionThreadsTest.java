package io.vgpu.gateway.scheduling;

import com.hazelcast.config.Config;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.port.BindingOutcome;
import io.vgpu.gateway.core.port.EventSink;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.PodAddress;
import io.vgpu.gateway.core.port.PodWriter;
import io.vgpu.gateway.core.port.WriteOutcome;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.core.request.RequestDeriver;
import io.vgpu.state.model.fixtures.GpuFixtures;
import io.vgpu.state.store.HazelcastClusterState;
import io.vgpu.state.store.HazelcastMemberConfig;
import io.vgpu.state.store.StoreConfig;
import io.vgpu.testsupport.Eventually;
import io.vgpu.testsupport.Ports;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;

import static io.vgpu.gateway.testflow.TestFlow.finish;
import static io.vgpu.gateway.testflow.TestFlow.onContext;
import static io.vgpu.gateway.testflow.TestFlow.step;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store completes its decision calls on Hazelcast's own threads (one hop fewer, issue 14 item 2), so the
 * gateway must take each result back to the calling event loop itself: a {@code /filter}'s step after its
 * reservation, and a {@code /bind}'s steps after its confirm-and-lock, run on the event loop that took the request,
 * never on a Hazelcast ({@code hz.*}) or store thread. A real embedded member; the pod writer notes the thread of
 * every write (each one is the continuation of a store call).
 */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(60)
class DecisionThreadsTest {

    /** Kept in a field: java.util.logging holds loggers weakly. */
    private static final Logger HAZELCAST_LOG = Logger.getLogger("com.hazelcast");
    private static final String NODE = "node1";

    private final ThreadNotingWriter writes = new ThreadNotingWriter();
    private HazelcastClusterState state;

    @BeforeAll
    void startMember(VertxTestContext ctx) {
        HAZELCAST_LOG.setLevel(Level.SEVERE);
        int port = Ports.free();
        Config member = HazelcastMemberConfig.build(new StoreConfig("vgpu-threads-" + UUID.randomUUID(),
                List.of("127.0.0.1:" + port), "127.0.0.1", port, 0, 0, 7));
        member.setProperty("hazelcast.logging.type", "jdk");
        member.setProperty("hazelcast.wait.seconds.before.join", "0");
        state = HazelcastClusterState.start(member);
        finish(ctx, step(state.ready()).compose(ready -> step(state.registerNode(GpuFixtures.node(NODE,
                GpuFixtures.card("GPU-a").memMiB(32768).build())))), registered -> { });
    }

    @AfterAll
    void stop() {
        state.member().getLifecycleService().terminate();
    }

    @Test
    void aFilterAndItsBindContinueOnTheCallingEventLoop(Vertx vertx, VertxTestContext ctx) {
        PodSpec pod = FilterFixtures.pod("threads", 2000);
        FilterService filters = FilterFixtures.service(state, FilterFixtures.quotaBook(), writes, EventSink.NONE);
        AtomicReference<String> filterLoop = new AtomicReference<>();
        AtomicReference<String> bindLoop = new AtomicReference<>();
        // the filter decides on this replica's view, fed by the registration's summary event
        Eventually.within(Duration.ofSeconds(10), NODE + " in the view", () -> state.node(NODE) != null);

        Future<BindOutcome> flow = onContext(vertx, () -> {
            filterLoop.set(Thread.currentThread().getName());
            return FilterFixtures.filter(filters, pod);
        }).compose(filtered -> {
            assertThat(filtered.nodeNames()).containsExactly(NODE);
            PodSpec annotated = FilterFixtures.pod("threads", 2000, writes.filterAnnotations.get());
            BindService binds = new BindService(BindServiceTest.cacheShowing(annotated), state,
                    LockFixtures.free(vertx, state, Clock.systemUTC(), new ArrayList<>()), writes, EventSink.NONE,
                    new RequestDeriver(NvidiaConfig.defaults()), SchedulingConfig.DEFAULTS, Clock.systemUTC());
            return onContext(vertx, () -> {
                bindLoop.set(Thread.currentThread().getName());
                return binds.bind(new BindRequest(annotated.namespace(), annotated.name(), annotated.uid(), NODE));
            });
        });

        finish(ctx, flow, bound -> {
            assertThat(bound).isEqualTo(BindOutcome.BOUND);
            assertThat(filterLoop.get()).startsWith("vert.x-eventloop-thread-");
            assertThat(writes.threads).as("the thread of each write after a store call")
                    .containsEntry("filter annotations", filterLoop.get())
                    .containsEntry("bind-phase", bindLoop.get())
                    .containsEntry("binding", bindLoop.get());
        });
    }

    /** Accepts every write and notes the thread it was made on, by kind of write. */
    private static final class ThreadNotingWriter implements PodWriter {

        final Map<String, String> threads = new ConcurrentHashMap<>();
        final AtomicReference<Map<String, String>> filterAnnotations = new AtomicReference<>(Map.of());

        private void note(String write) {
            threads.put(write, Thread.currentThread().getName());
        }

        @Override
        public CompletionStage<WriteOutcome> patchFilterAnnotations(PodAddress pod, Map<String, String> annotations,
                                                                    Map<String, String> labels) {
            note("filter annotations");
            filterAnnotations.set(Map.copyOf(annotations));
            return CompletableFuture.completedFuture(new WriteOutcome.Written());
        }

        @Override
        public CompletionStage<WriteOutcome> patchBindPhase(PodAddress pod, String phase, long bindTimeSeconds) {
            note("bind-phase");
            return CompletableFuture.completedFuture(new WriteOutcome.Written());
        }

        @Override
        public CompletionStage<BindingOutcome> bind(PodAddress pod, String node) {
            note("binding");
            return CompletableFuture.completedFuture(new BindingOutcome.Bound(false));
        }

        @Override
        public CompletionStage<Optional<ObservedPod>> readPod(PodAddress pod) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
    }

}
