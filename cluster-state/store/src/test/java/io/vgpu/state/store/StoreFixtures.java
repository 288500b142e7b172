package io.vgpu.state.store;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.NodeInventory;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodRef;
import io.vgpu.state.model.Vendor;
import io.vgpu.testsupport.Eventually;
import io.vgpu.testsupport.Ports;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real embedded members on 127.0.0.1 for component tests: a random cluster name and port range per cluster (so
 * that concurrent builds on the same machine never join each other), few partitions and short join waits.
 */
final class StoreFixtures {

    /** Kept in a field: java.util.logging holds loggers weakly. */
    private static final Logger HAZELCAST_LOG = Logger.getLogger("com.hazelcast");

    static {
        HAZELCAST_LOG.setLevel(Level.SEVERE);
    }

    /** Where the stores' stages complete, as a worker pool would in the gateway. */
    private static final ExecutorService CALLBACKS = Executors.newFixedThreadPool(4, task -> {
        Thread t = new Thread(task, "store-test-callback");
        t.setDaemon(true);
        return t;
    });

    private StoreFixtures() {
    }

    /** Settings of one test cluster of up to {@code size} members. */
    static StoreConfig clusterOf(int size, int backupCount, int quorumSize) {
        int base = Ports.free();
        List<String> members = new ArrayList<>();
        for (int port = base; port < base + size + 3; port++) {
            members.add("127.0.0.1:" + port);
        }
        return new StoreConfig("vgpu-test-" + UUID.randomUUID(), members, "127.0.0.1", base, backupCount, quorumSize, 7);
    }

    /** The member configuration of a test: the product's, with join waits shortened. */
    static Config memberConfig(StoreConfig store) {
        Config config = HazelcastMemberConfig.build(store);
        config.setProperty("hazelcast.logging.type", "jdk");
        config.setProperty("hazelcast.wait.seconds.before.join", "1");
        config.setProperty("hazelcast.max.wait.seconds.before.join", "2");
        config.setProperty("hazelcast.graceful.shutdown.max.wait", "20");
        return config;
    }

    /**
     * Starts {@code count} members one after the other, attaches a store to each and waits until the cluster is
     * formed and safe (every backup in sync: before that, losing a member may lose entries) and every store is
     * ready.
     */
    static List<HazelcastClusterState> start(StoreConfig store, int count) {
        List<HazelcastClusterState> states = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            states.add(startOne(store));
        }
        awaitFormed(states);
        return states;
    }

    static void awaitFormed(List<HazelcastClusterState> states) {
        Eventually.passes(Duration.ofSeconds(30), () -> states.forEach(s -> {
            assertThat(s.member().getCluster().getMembers()).hasSize(states.size());
            assertThat(s.member().getPartitionService().isClusterSafe()).isTrue();
        }));
        states.forEach(s -> join(s.ready()));
    }

    static HazelcastClusterState startOne(StoreConfig store) {
        HazelcastInstance member = Hazelcast.newHazelcastInstance(memberConfig(store));
        return HazelcastClusterState.attach(member, CALLBACKS);
    }

    /** {@link #startOne} with the member's summary publications handed to {@code publications}. */
    static HazelcastClusterState startOne(StoreConfig store, java.util.concurrent.Executor publications) {
        HazelcastInstance member = Hazelcast.newHazelcastInstance(memberConfig(store));
        return HazelcastClusterState.attach(member, CALLBACKS, publications);
    }

    /** Starts a member owned by its store: {@link HazelcastClusterState#shutdown()} leaves the cluster. */
    static HazelcastClusterState startOwning(StoreConfig store) {
        return HazelcastClusterState.start(memberConfig(store));
    }

    /** The failure of a stage that must fail (the exception it was completed with, unwrapped once). */
    static Throwable failure(CompletionStage<?> stage) {
        Throwable error = stage.toCompletableFuture().handle((v, e) -> e).join();
        if (error == null) {
            throw new AssertionError("the stage succeeded");
        }
        return error instanceof CompletionException && error.getCause() != null
                ? error.getCause() : error;
    }

    /** Stops every member at once (teardown: no graceful migration needed). */
    static void terminate(List<HazelcastClusterState> states) {
        states.forEach(s -> {
            if (s.member().getLifecycleService().isRunning()) {
                s.member().getLifecycleService().terminate();
            }
        });
    }

    /**
     * The full value of {@code node} is held by its key's owner only (DESIGN.md §3 "What fans out is O(GPUs), never
     * O(pods)"): the owner's {@code nodeState} equals {@code stored}, every other replica's is null, and every replica
     * reads {@code stored} from the owner.
     */
    static void ownerOnlyHolds(List<HazelcastClusterState> replicas, String node, NodeState stored) {
        for (HazelcastClusterState r : replicas) {
            if (r.ownsNode(node)) {
                assertThat(r.nodeState(node)).as("the owner's copy").isEqualTo(stored);
            } else {
                assertThat(r.nodeState(node)).as("a non-owner's copy").isNull();
            }
            assertThat(join(r.readNode(node))).as("read at the owner").contains(stored);
        }
    }

    static <T> T join(CompletionStage<T> stage) {
        try {
            return stage.toCompletableFuture().get(20, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("stage did not complete: " + e, e);
        }
    }

    static void joinThread(Thread thread) {
        try {
            thread.join(20_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    static GpuDevice gpu(String id, int slots, int mem) {
        return new GpuDevice(id, 0, slots, mem, 100, "NVIDIA A100", 0, "hami-core", List.of(), true);
    }

    static NodeInventory inventory(String node, GpuDevice... devices) {
        return new NodeInventory(node, List.of(devices), Map.of(), Map.of());
    }

    static PodAllocation slice(String uuid, int mem) {
        return new PodAllocation(List.of(List.of(new ContainerDevice(0, uuid, Vendor.NVIDIA, mem, 0))), 0);
    }

    static PodRef pod(String uid) {
        return new PodRef(uid, "ns", "pod-" + uid);
    }

}
