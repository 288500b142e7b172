package io.vgpu.gateway.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.CompositeFuture;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vgpu.gateway.core.nodelock.LockRetry;
import io.vgpu.gateway.core.nodelock.NamespacedName;
import io.vgpu.gateway.core.port.LockOutcome;
import io.vgpu.gateway.core.port.ReleaseOutcome;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeLockCodec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.vgpu.gateway.kube.KubeFixtures.finishOnWorker;
import static io.vgpu.gateway.kube.KubeFixtures.node;
import static io.vgpu.gateway.kube.KubeFixtures.pod;
import static io.vgpu.gateway.testflow.TestFlow.finish;
import static io.vgpu.gateway.testflow.TestFlow.step;
import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class KubeNodeLockTest {

    private static final Duration TIMEOUT = Duration.ofMinutes(5);
    private static final LockRetry FAST = new LockRetry(5, Duration.ofMillis(10), 2.0, 0.5);
    private static final Clock CLOCK = Clock.systemUTC();

    private static KubeFixtures.MockKube kube;
    private static MockApiServer server;
    private static KubernetesClient client;
    private static KubeApi api;
    private static KubeNodeLock locks;
    private String ns;
    private String nodeName;
    private NamespacedName me;

    @BeforeAll
    static void startServer() {
        kube = KubeFixtures.mockKube();
        server = kube.server();
        client = kube.client();
        api = kube.api();
        locks = new KubeNodeLock(api, CLOCK, ZoneOffset.UTC, FAST);
    }

    @AfterAll
    static void stopServer() {
        kube.close();
    }

    @BeforeEach
    void names(TestInfo test) {
        ns = KubeFixtures.nameOf(test);
        nodeName = "node-" + ns;
        me = new NamespacedName(ns, "me");
    }

    @Test
    void aFreeNodeIsLockedWithTheOwnerValueInOneGuardedPatch(Vertx vertx, VertxTestContext ctx) {
        createNode(null);

        finishOnWorker(ctx, vertx, step(locks.lock(nodeName, me, TIMEOUT)), outcome -> {
            assertThat(outcome).isInstanceOfSatisfying(LockOutcome.Acquired.class, a -> {
                assertThat(a.how()).isEqualTo(LockOutcome.How.FREE);
                assertThat(a.lockValue()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ," + ns + ",me");
            });
            assertThat(lockOnNode()).isEqualTo(((LockOutcome.Acquired) outcome).lockValue());
            List<MockApiServer.Request> patches = server.requests("PATCH", KubePaths.node(nodeName));
            assertThat(patches).hasSize(1);
            assertThat(patches.get(0).body()).matches(
                    "\\{\"metadata\":\\{\"annotations\":\\{\"hami.io/mutex.lock\":\"[^\"]+\"},"
                            + "\"resourceVersion\":\"\\d+\"}}");
        });
    }

    @Test
    void lockingAgainForTheSamePodIsReentrantAndWritesNothing(VertxTestContext ctx) {
        createNode(null);

        Future<LockOutcome> again = step(locks.lock(nodeName, me, TIMEOUT))
                .compose(first -> step(locks.lock(nodeName, me, TIMEOUT)));

        finish(ctx, again, outcome -> {
            assertThat(outcome).isInstanceOfSatisfying(LockOutcome.Acquired.class,
                    a -> assertThat(a.how()).isEqualTo(LockOutcome.How.ALREADY_HELD));
            assertThat(server.requests("PATCH", KubePaths.node(nodeName))).hasSize(1);
        });
    }

    @Test
    void aFreshLockOfALivePodIsContention(Vertx vertx, VertxTestContext ctx) {
        client.resource(pod(ns, "owner").boundTo(nodeName).build()).create();
        String held = NodeLockCodec.value(Instant.now(), ZoneOffset.UTC, ns, "owner");
        createNode(held);

        finishOnWorker(ctx, vertx, step(locks.lock(nodeName, me, TIMEOUT)), outcome -> {
            assertThat(outcome).isEqualTo(new LockOutcome.Contended(
                    "node " + nodeName + " has been locked within 5m0s: node lock contention"));
            assertThat(lockOnNode()).isEqualTo(held);
            assertThat(server.requests("PATCH", KubePaths.node(nodeName))).isEmpty();
        });
    }

    @Test
    void anExpiredLockIsTakenOverEvenIfItsOwnerLives(Vertx vertx, VertxTestContext ctx) {
        client.resource(pod(ns, "owner").boundTo(nodeName).build()).create();
        createNode(NodeLockCodec.value(Instant.now().minus(Duration.ofMinutes(6)), ZoneOffset.UTC, ns, "owner"));

        finishOnWorker(ctx, vertx, step(locks.lock(nodeName, me, TIMEOUT)), outcome -> {
            assertThat(outcome).isInstanceOfSatisfying(LockOutcome.Acquired.class,
                    a -> assertThat(a.how()).isEqualTo(LockOutcome.How.EXPIRED));
            assertThat(lockOnNode()).endsWith("," + ns + ",me");
        });
    }

    @Test
    void aLockWhoseOwnerPodIsGoneIsTakenOver(Vertx vertx, VertxTestContext ctx) {
        createNode(NodeLockCodec.value(Instant.now(), ZoneOffset.UTC, ns, "deleted-pod"));

        finishOnWorker(ctx, vertx, step(locks.lock(nodeName, me, TIMEOUT)), outcome -> {
            assertThat(outcome).isInstanceOfSatisfying(LockOutcome.Acquired.class,
                    a -> assertThat(a.how()).isEqualTo(LockOutcome.How.DANGLING));
            assertThat(lockOnNode()).endsWith("," + ns + ",me");
            assertThat(server.requests("GET", KubePaths.pod(ns, "deleted-pod"))).hasSize(1);
        });
    }

    @Test
    void aMalformedLockFailsWithoutWriting(VertxTestContext ctx) {
        createNode("2026-08-01T06:00:00Z,only-two");

        finish(ctx, step(locks.lock(nodeName, me, TIMEOUT)), outcome -> {
            assertThat(outcome).isEqualTo(new LockOutcome.Failed(
                    "malformed lock annotation: expected 3 parts, got 2 from 2026-08-01T06:00:00Z,only-two"));
            assertThat(server.requests("PATCH", KubePaths.node(nodeName))).isEmpty();
        });
    }

    @Test
    void anUnknownNodeFailsWithTheApiText(VertxTestContext ctx) {
        finish(ctx, step(locks.lock(nodeName, me, TIMEOUT)), outcome -> assertThat(outcome)
                .isEqualTo(new LockOutcome.Failed("nodes \"" + nodeName + "\" not found")));
    }

    @Test
    void aLostPatchResponseIsRecognisedOnTheNextRead(Vertx vertx, VertxTestContext ctx) {
        createNode(null);
        server.loseNextResponse("PATCH", KubePaths.node(nodeName));

        finishOnWorker(ctx, vertx, step(locks.lock(nodeName, me, TIMEOUT)), outcome -> {
            assertThat(outcome.acquired()).isTrue();
            assertThat(lockOnNode()).endsWith("," + ns + ",me");
            assertThat(server.requests("PATCH", KubePaths.node(nodeName))).hasSize(1);
        });
    }

    @Test
    void aConcurrentWriteBetweenReadAndPatchGets409AndIsRetried(Vertx vertx, VertxTestContext ctx) {
        createNode(null);
        server.beforeNext("PATCH", KubePaths.node(nodeName),
                s -> s.patchDirectly(KubePaths.node(nodeName), "{\"metadata\":{\"labels\":{\"touched\":\"yes\"}}}"));

        finishOnWorker(ctx, vertx, step(locks.lock(nodeName, me, TIMEOUT)), outcome -> {
            assertThat(outcome.acquired()).isTrue();
            assertThat(server.requests("PATCH", KubePaths.node(nodeName))).hasSize(2);
            assertThat(lockOnNode()).endsWith("," + ns + ",me");
        });
    }

    @Test
    void ofConcurrentLockersInSeparateReplicasExactlyOneWins(Vertx vertx, VertxTestContext ctx) {
        createNode(null);
        List<KubeNodeLock> replicas = new ArrayList<>();
        List<Future<LockOutcome>> outcomes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            client.resource(pod(ns, "pod-" + i).build()).create();
            replicas.add(new KubeNodeLock(api, CLOCK, ZoneOffset.UTC, FAST));
        }
        for (int i = 0; i < 4; i++) {
            outcomes.add(step(replicas.get(i).lock(nodeName, new NamespacedName(ns, "pod-" + i), TIMEOUT)));
        }

        finishOnWorker(ctx, vertx, Future.all(outcomes).map(CompositeFuture::<LockOutcome>list), results -> {
            assertThat(results).filteredOn(LockOutcome::acquired).hasSize(1);
            assertThat(results).filteredOn(r -> !r.acquired()).allSatisfy(r -> {
                assertThat(r).isInstanceOf(LockOutcome.Contended.class);
                assertThat(r.message()).endsWith("node lock contention");
            });
            String winner = ((LockOutcome.Acquired) results.stream().filter(LockOutcome::acquired).findFirst()
                    .orElseThrow()).lockValue();
            assertThat(lockOnNode()).isEqualTo(winner);
        });
    }

    @Test
    void callsForOneNodeRunOneAtATimeInCallOrder(VertxTestContext ctx) {
        createNode(null);
        client.resource(pod(ns, "me").build()).create(); // the owner lives: no dangling take-over
        client.resource(pod(ns, "other").build()).create();

        Future<LockOutcome> first = step(locks.lock(nodeName, me, TIMEOUT));
        Future<LockOutcome> second = step(locks.lock(nodeName, new NamespacedName(ns, "other"), TIMEOUT));

        finish(ctx, first.compose(acquired -> {
            assertThat(acquired.acquired()).isTrue();
            return second;
        }), contended -> {
            assertThat(contended).isInstanceOf(LockOutcome.Contended.class);
            assertThat(server.requests("PATCH", KubePaths.node(nodeName))).hasSize(1);
        });
    }

    @Test
    void releaseByTheOwnerRemovesTheLock(Vertx vertx, VertxTestContext ctx) {
        createNode(null);

        Future<ReleaseOutcome> released = step(locks.lock(nodeName, me, TIMEOUT))
                .compose(locked -> step(locks.release(nodeName, me, false)));

        finishOnWorker(ctx, vertx, released, outcome -> {
            assertThat(outcome).isEqualTo(new ReleaseOutcome.Released(true));
            assertThat(lockOnNode()).isNull();
            assertThat(server.requests("PATCH", KubePaths.node(nodeName)).get(1).body()).matches(
                    "\\{\"metadata\":\\{\"annotations\":\\{\"hami.io/mutex.lock\":null},\"resourceVersion\":\"\\d+\"}}");
        });
    }

    @Test
    void releaseByAnotherPodLeavesTheLock(Vertx vertx, VertxTestContext ctx) {
        String held = NodeLockCodec.value(Instant.now(), ZoneOffset.UTC, ns, "owner");
        createNode(held);

        finishOnWorker(ctx, vertx, step(locks.release(nodeName, me, false)), outcome -> {
            assertThat(outcome).isEqualTo(new ReleaseOutcome.Released(false));
            assertThat(lockOnNode()).isEqualTo(held);
        });
    }

    @Test
    void aLegacyOwnerlessLockIsReleasedByAnyone(Vertx vertx, VertxTestContext ctx) {
        createNode(NodeLockCodec.legacyValue(Instant.now(), ZoneOffset.UTC));

        finishOnWorker(ctx, vertx, step(locks.release(nodeName, me, false)), outcome -> {
            assertThat(outcome).isEqualTo(new ReleaseOutcome.Released(true));
            assertThat(lockOnNode()).isNull();
        });
    }

    @Test
    void releasingAnUnlockedNodeSucceedsWithoutWriting(VertxTestContext ctx) {
        createNode(null);

        finish(ctx, step(locks.release(nodeName, me, false)), outcome -> {
            assertThat(outcome).isEqualTo(new ReleaseOutcome.Released(false));
            assertThat(server.requests("PATCH", KubePaths.node(nodeName))).isEmpty();
        });
    }

    private void createNode(String lock) {
        KubeFixtures.NodeFixture n = node(nodeName).allocatableGpus("1");
        if (lock != null) {
            n.annotation(HamiAnnotations.NODE_LOCK, lock);
        }
        client.resource(n.build()).create();
    }

    private String lockOnNode() {
        var annotations = client.nodes().withName(nodeName).get().getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(HamiAnnotations.NODE_LOCK);
    }
}
