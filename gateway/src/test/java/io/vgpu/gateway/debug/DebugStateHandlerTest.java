package io.vgpu.gateway.debug;

import com.hazelcast.config.Config;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.PoolOptions;
import io.vertx.ext.web.Router;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vgpu.state.store.HazelcastClusterState;
import io.vgpu.state.store.HazelcastMemberConfig;
import io.vgpu.state.store.StoreConfig;
import io.vgpu.testsupport.ManualClock;
import io.vgpu.testsupport.Ports;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /debug/state} probed faster than a dump completes (a checker every 100 ms while {@code isClusterSafe} waits
 * on a migrating cluster) neither piles up dumps nor takes the shared worker pool the decision paths use. A soak run
 * found it: twenty workers blocked in the cluster-safety check, filters timing out behind them, a full restart that
 * never looked safe.
 */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DebugStateHandlerTest {

    /** Kept in a field: java.util.logging holds loggers weakly. */
    private static final Logger HAZELCAST_LOG = Logger.getLogger("com.hazelcast");
    /** More than Vert.x's default worker pool (20): the old handler blocked every worker with these. */
    private static final int PROBES = 40;

    private static final ManualClock CLOCK = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));

    private HazelcastClusterState state;

    @BeforeAll
    void startMember() {
        HAZELCAST_LOG.setLevel(Level.SEVERE);
        int port = Ports.free();
        StoreConfig store = new StoreConfig("vgpu-debug-" + UUID.randomUUID(), List.of("127.0.0.1:" + port),
                "127.0.0.1", port, 0, 0, 7);
        Config member = HazelcastMemberConfig.build(store);
        member.setProperty("hazelcast.logging.type", "jdk");
        state = HazelcastClusterState.start(member);
    }

    @AfterAll
    void stopMember() {
        state.member().getLifecycleService().terminate();
    }

    @Test
    void probesDuringASlowDumpShareItAndLeaveTheWorkerPoolFree(Vertx vertx, VertxTestContext ctx) {
        CountDownLatch slow = new CountDownLatch(1);
        AtomicInteger dumps = new AtomicInteger();
        BooleanSupplier ready = () -> { // the first thing a dump asks: stands for a cluster-safety check that hangs
            dumps.incrementAndGet();
            awaitUninterruptibly(slow);
            return true;
        };
        DebugStateHandler handler = new DebugStateHandler(vertx, state, "r1", ready, CLOCK);
        AtomicInteger arrived = new AtomicInteger();
        Router router = Router.router(vertx);
        router.get("/debug/state").handler(rc -> {
            arrived.incrementAndGet();
            handler.handle(rc);
        });
        HttpClient client = vertx.createHttpClient(new HttpClientOptions(), new PoolOptions().setHttp1MaxSize(PROBES));
        vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").onComplete(ctx.succeeding(server -> {
            List<Future<String>> answers = new ArrayList<>();
            for (int i = 0; i < PROBES; i++) {
                answers.add(get(client, server));
            }
            vertx.setPeriodic(20, id -> {
                if (arrived.get() < PROBES) {
                    return;
                }
                vertx.cancelTimer(id);
                // every probe is in while the dump hangs: the shared pool must still run other work at once
                vertx.executeBlocking(() -> "free", false).onComplete(ctx.succeeding(free -> {
                    ctx.verify(() -> assertThat(dumps.get()).as("dumps started by %d probes", PROBES).isEqualTo(1));
                    // (the clock stands still: every probe is within a second of the first dump's start)
                    slow.countDown();
                    Future.all(answers).onComplete(ctx.succeeding(all -> ctx.verify(() -> {
                        List<String> bodies = all.list();
                        assertThat(bodies).allSatisfy(b -> assertThat(b).contains("\"replica\":\"r1\""));
                        handler.close().onComplete(ctx.succeedingThenComplete());
                    })));
                }));
            });
        }));
    }

    @Test
    void aProbeMoreThanASecondAfterAHungDumpGetsAFreshOne(Vertx vertx, VertxTestContext ctx) {
        CountDownLatch slow = new CountDownLatch(1);
        AtomicInteger dumps = new AtomicInteger();
        BooleanSupplier ready = () -> { // only the first dump hangs, as a safety call in flight when a member died
            if (dumps.incrementAndGet() == 1) {
                awaitUninterruptibly(slow);
            }
            return true;
        };
        ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
        DebugStateHandler handler = new DebugStateHandler(vertx, state, "r2", ready, clock);
        Router router = Router.router(vertx);
        router.get("/debug/state").handler(handler);
        HttpClient client = vertx.createHttpClient(new HttpClientOptions(), new PoolOptions().setHttp1MaxSize(4));
        vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").onComplete(ctx.succeeding(server -> {
            Future<String> hung = get(client, server);
            vertx.setPeriodic(20, id -> {
                if (dumps.get() < 1) {
                    return;
                }
                vertx.cancelTimer(id);
                clock.advance(Duration.ofSeconds(2));
                get(client, server).onComplete(ctx.succeeding(fresh -> ctx.verify(() -> {
                    assertThat(hung.isComplete()).as("the first dump still hangs").isFalse();
                    assertThat(fresh).contains("\"replica\":\"r2\"");
                    slow.countDown();
                    hung.onComplete(ctx.succeeding(first -> handler.close()
                            .onComplete(ctx.succeedingThenComplete())));
                })));
            });
        }));
    }

    private static Future<String> get(HttpClient client, HttpServer server) {
        return client.request(HttpMethod.GET, server.actualPort(), "127.0.0.1", "/debug/state")
                .compose(req -> req.send())
                .compose(resp -> resp.statusCode() == 200 ? resp.body()
                        : Future.failedFuture("status " + resp.statusCode()))
                .map(Object::toString);
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        try {
            // bounded: a failing run (the old handler) frees its workers when the test gives up
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
