package io.vgpu.gateway.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
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

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import static io.vgpu.gateway.kube.KubeFixtures.await;
import static io.vgpu.gateway.kube.KubeFixtures.node;
import static io.vgpu.gateway.kube.KubeFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

class KubeNodeLockTest {

    private static final Duration TIMEOUT = Duration.ofMinutes(5);
    private static final LockRetry FAST = new LockRetry(5, Duration.ofMillis(10), 2.0, 0.5);
    private static final Clock CLOCK = Clock.systemUTC();

    private static MockApiServer server;
    private static KubernetesClient client;
    private static KubeApi api;
    private static KubeNodeLock locks;
    private String ns;
    private String nodeName;
    private NamespacedName me;

    @BeforeAll
    static void startServer() {
        server = MockApiServer.start();
        client = server.client(KubeFixtures.TEST_CLIENT);
        api = new KubeApi(client, KubeFixtures.TEST_CLIENT);
        locks = new KubeNodeLock(api, CLOCK, ZoneOffset.UTC, FAST);
    }

    @AfterAll
    static void stopServer() {
        api.close();
        client.close();
        server.close();
    }

    @BeforeEach
    void names(TestInfo test) {
        ns = KubeFixtures.nameOf(test);
        nodeName = "node-" + ns;
        me = new NamespacedName(ns, "me");
    }

    @Test
    void aFreeNodeIsLockedWithTheOwnerValueInOneGuardedPatch() {
        createNode(null);

        LockOutcome outcome = await(locks.lock(nodeName, me, TIMEOUT));

        assertThat(outcome).isInstanceOfSatisfying(LockOutcome.Acquired.class, a -> {
            assertThat(a.how()).isEqualTo(LockOutcome.How.FREE);
            assertThat(a.lockValue()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ," + ns + ",me");
        });
        assertThat(lockOnNode()).isEqualTo(((LockOutcome.Acquired) outcome).lockValue());
        List<MockApiServer.Request> patches = server.requests("PATCH", KubePaths.node(nodeName));
        assertThat(patches).hasSize(1);
        assertThat(patches.get(0).body()).matches("\\{\"metadata\":\\{\"annotations\":\\{\"hami.io/mutex.lock\":\"[^\"]+\"},"
                + "\"resourceVersion\":\"\\d+\"}}");
    }

    @Test
    void lockingAgainForTheSamePodIsReentrantAndWritesNothing() {
        createNode(null);
        await(locks.lock(nodeName, me, TIMEOUT));

        LockOutcome again = await(locks.lock(nodeName, me, TIMEOUT));

        assertThat(again).isInstanceOfSatisfying(LockOutcome.Acquired.class,
                a -> assertThat(a.how()).isEqualTo(LockOutcome.How.ALREADY_HELD));
        assertThat(server.requests("PATCH", KubePaths.node(nodeName))).hasSize(1);
    }

    @Test
    void aFreshLockOfALivePodIsContention() {
        client.resource(pod(ns, "owner").boundTo(nodeName).build()).create();
        String held = NodeLockCodec.value(Instant.now(), ZoneOffset.UTC, ns, "owner");
        createNode(held);

        LockOutcome outcome = await(locks.lock(nodeName, me, TIMEOUT));

        assertThat(outcome).isEqualTo(new LockOutcome.Contended(
                "node " + nodeName + " has been locked within 5m0s: node lock contention"));
        assertThat(lockOnNode()).isEqualTo(held);
        assertThat(server.requests("PATCH", KubePaths.node(nodeName))).isEmpty();
    }

    @Test
    void anExpiredLockIsTakenOverEvenIfItsOwnerLives() {
        client.resource(pod(ns, "owner").boundTo(nodeName).build()).create();
        createNode(NodeLockCodec.value(Instant.now().minus(Duration.ofMinutes(6)), ZoneOffset.UTC, ns, "owner"));

        LockOutcome outcome = await(locks.lock(nodeName, me, TIMEOUT));

        assertThat(outcome).isInstanceOfSatisfying(LockOutcome.Acquired.class,
                a -> assertThat(a.how()).isEqualTo(LockOutcome.How.EXPIRED));
        assertThat(lockOnNode()).endsWith("," + ns + ",me");
    }

    @Test
    void aLockWhoseOwnerPodIsGoneIsTakenOver() {
        createNode(NodeLockCodec.value(Instant.now(), ZoneOffset.UTC, ns, "deleted-pod"));

        LockOutcome outcome = await(locks.lock(nodeName, me, TIMEOUT));

        assertThat(outcome).isInstanceOfSatisfying(LockOutcome.Acquired.class,
                a -> assertThat(a.how()).isEqualTo(LockOutcome.How.DANGLING));
        assertThat(lockOnNode()).endsWith("," + ns + ",me");
        assertThat(server.requests("GET", KubePaths.pod(ns, "deleted-pod"))).hasSize(1);
    }

    @Test
    void aMalformedLockFailsWithoutWriting() {
        createNode("2026-08-01T06:00:00Z,only-two");

        LockOutcome outcome = await(locks.lock(nodeName, me, TIMEOUT));

        assertThat(outcome).isEqualTo(new LockOutcome.Failed(
                "malformed lock annotation: expected 3 parts, got 2 from 2026-08-01T06:00:00Z,only-two"));
        assertThat(server.requests("PATCH", KubePaths.node(nodeName))).isEmpty();
    }

    @Test
    void anUnknownNodeFailsWithTheApiText() {
        LockOutcome outcome = await(locks.lock(nodeName, me, TIMEOUT));

        assertThat(outcome).isEqualTo(new LockOutcome.Failed("nodes \"" + nodeName + "\" not found"));
    }

    @Test
    void aLostPatchResponseIsRecognisedOnTheNextRead() {
        createNode(null);
        server.loseNextResponse("PATCH", KubePaths.node(nodeName));

        LockOutcome outcome = await(locks.lock(nodeName, me, TIMEOUT));

        assertThat(outcome.acquired()).isTrue();
        assertThat(lockOnNode()).endsWith("," + ns + ",me");
        assertThat(server.requests("PATCH", KubePaths.node(nodeName))).hasSize(1);
    }

    @Test
    void aConcurrentWriteBetweenReadAndPatchGets409AndIsRetried() {
        createNode(null);
        server.beforeNext("PATCH", KubePaths.node(nodeName),
                s -> s.patchDirectly(KubePaths.node(nodeName), "{\"metadata\":{\"labels\":{\"touched\":\"yes\"}}}"));

        LockOutcome outcome = await(locks.lock(nodeName, me, TIMEOUT));

        assertThat(outcome.acquired()).isTrue();
        assertThat(server.requests("PATCH", KubePaths.node(nodeName))).hasSize(2);
        assertThat(lockOnNode()).endsWith("," + ns + ",me");
    }

    @Test
    void ofConcurrentLockersInSeparateReplicasExactlyOneWins() {
        createNode(null);
        List<KubeNodeLock> replicas = new ArrayList<>();
        List<CompletableFuture<LockOutcome>> outcomes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            client.resource(pod(ns, "pod-" + i).build()).create();
            replicas.add(new KubeNodeLock(api, CLOCK, ZoneOffset.UTC, FAST));
        }
        for (int i = 0; i < 4; i++) {
            outcomes.add(replicas.get(i).lock(nodeName, new NamespacedName(ns, "pod-" + i), TIMEOUT).toCompletableFuture());
        }

        List<LockOutcome> results = outcomes.stream().map(KubeFixtures::await).toList();

        assertThat(results).filteredOn(LockOutcome::acquired).hasSize(1);
        assertThat(results).filteredOn(r -> !r.acquired()).allSatisfy(r -> {
            assertThat(r).isInstanceOf(LockOutcome.Contended.class);
            assertThat(r.message()).endsWith("node lock contention");
        });
        String winner = ((LockOutcome.Acquired) results.stream().filter(LockOutcome::acquired).findFirst()
                .orElseThrow()).lockValue();
        assertThat(lockOnNode()).isEqualTo(winner);
    }

    @Test
    void callsForOneNodeRunOneAtATimeInCallOrder() {
        createNode(null);
        client.resource(pod(ns, "me").build()).create(); // the owner lives: no dangling take-over
        client.resource(pod(ns, "other").build()).create();

        CompletionStage<LockOutcome> first = locks.lock(nodeName, me, TIMEOUT);
        CompletionStage<LockOutcome> second = locks.lock(nodeName, new NamespacedName(ns, "other"), TIMEOUT);

        assertThat(await(first).acquired()).isTrue();
        assertThat(await(second)).isInstanceOf(LockOutcome.Contended.class);
        assertThat(server.requests("PATCH", KubePaths.node(nodeName))).hasSize(1);
    }

    @Test
    void releaseByTheOwnerRemovesTheLock() {
        createNode(null);
        await(locks.lock(nodeName, me, TIMEOUT));

        ReleaseOutcome outcome = await(locks.release(nodeName, me, false));

        assertThat(outcome).isEqualTo(new ReleaseOutcome.Released(true));
        assertThat(lockOnNode()).isNull();
        assertThat(server.requests("PATCH", KubePaths.node(nodeName)).get(1).body())
                .matches("\\{\"metadata\":\\{\"annotations\":\\{\"hami.io/mutex.lock\":null},\"resourceVersion\":\"\\d+\"}}");
    }

    @Test
    void releaseByAnotherPodLeavesTheLock() {
        String held = NodeLockCodec.value(Instant.now(), ZoneOffset.UTC, ns, "owner");
        createNode(held);

        ReleaseOutcome outcome = await(locks.release(nodeName, me, false));

        assertThat(outcome).isEqualTo(new ReleaseOutcome.Released(false));
        assertThat(lockOnNode()).isEqualTo(held);
    }

    @Test
    void aLegacyOwnerlessLockIsReleasedByAnyone() {
        createNode(NodeLockCodec.legacyValue(Instant.now(), ZoneOffset.UTC));

        assertThat(await(locks.release(nodeName, me, false))).isEqualTo(new ReleaseOutcome.Released(true));
        assertThat(lockOnNode()).isNull();
    }

    @Test
    void releasingAnUnlockedNodeSucceedsWithoutWriting() {
        createNode(null);

        assertThat(await(locks.release(nodeName, me, false))).isEqualTo(new ReleaseOutcome.Released(false));
        assertThat(server.requests("PATCH", KubePaths.node(nodeName))).isEmpty();
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
