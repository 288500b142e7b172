package io.vgpu.state.store;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.vgpu.state.model.ConfirmLockOutcome;
import io.vgpu.state.model.ConfirmOutcome;
import io.vgpu.state.model.LockOutcome;
import io.vgpu.state.model.ReserveOutcome;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;

import static io.vgpu.state.store.StoreFixtures.clusterOf;
import static io.vgpu.state.store.StoreFixtures.gpu;
import static io.vgpu.state.store.StoreFixtures.inventory;
import static io.vgpu.state.store.StoreFixtures.join;
import static io.vgpu.state.store.StoreFixtures.pod;
import static io.vgpu.state.store.StoreFixtures.slice;
import static io.vgpu.testsupport.Eventually.passes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The decision calls ({@code reserve}, {@code confirm}, {@code confirmAndLock}, {@code lockNode}) complete on the
 * thread that completed the Hazelcast call, not through the callback executor (one hop fewer per decision; issue 14
 * item 2), and the pod-index write that follows a placement runs afterwards on the callback executor. The proof holds
 * the callback executor: a decision still completes, and the pod index is untouched until the executor runs again.
 * One member, so the index write and the test's read of the same key queue on one partition in order.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(60)
class DecisionHopsTest {

    private final HeldExecutor callbacks = new HeldExecutor();
    private HazelcastClusterState store;
    private IMap<String, String> podIndex;

    @BeforeAll
    void start() {
        HazelcastInstance member = Hazelcast.newHazelcastInstance(StoreFixtures.memberConfig(clusterOf(1, 0, 0)));
        store = HazelcastClusterState.attach(member, callbacks);
        join(store.ready());
        podIndex = member.getMap(HazelcastMemberConfig.POD_INDEX_MAP);
    }

    @AfterAll
    void stop() {
        store.member().getLifecycleService().terminate();
        callbacks.pool.shutdownNow();
    }

    @AfterEach
    void runHeld() {
        callbacks.release();
    }

    @Test
    void aReservationCompletesOffTheCallbackExecutorBeforeItsPodIndexWrite() {
        join(store.registerNode(inventory("hop-reserve", gpu("g0", 10, 8000))));
        callbacks.hold();

        AtomicReference<String> completedOn = new AtomicReference<>();
        ReserveOutcome outcome = join(store.reserve("hop-reserve", pod("r1"), slice("g0", 1000), 0, 60_000)
                .whenComplete((v, e) -> completedOn.set(Thread.currentThread().getName())));

        assertThat(outcome.isReserved()).as("answered while the callback executor is held").isTrue();
        // Hazelcast's partition thread (this test's own if it completed before the test looked), never the common
        // ForkJoin pool, where Hazelcast runs a plain dependent of its futures (DEPENDENCIES.md pitfall 6)
        assertThat(completedOn.get()).as("the thread the reservation completed on")
                .satisfiesAnyOf(t -> assertThat(t).startsWith("hz."),
                        t -> assertThat(t).isEqualTo(Thread.currentThread().getName()));
        assertThat(podIndex.get("r1")).as("the pod index while the callback executor is held").isNull();
        assertThat(callbacks.heldCount()).as("the index write, handed to the callback executor").isEqualTo(1);

        callbacks.release();
        passes(Duration.ofSeconds(10), () -> assertThat(podIndex.get("r1")).isEqualTo("hop-reserve"));
    }

    @Test
    void aBindThatReReservesCompletesBeforeItsPodIndexWrite() {
        join(store.registerNode(inventory("hop-bind", gpu("g0", 10, 8000))));
        callbacks.hold();

        // no reservation on the node: the bind re-reserves the recorded allocation, then locks
        ConfirmLockOutcome outcome = join(store.confirmAndLock("hop-bind", pod("b1"), slice("g0", 1000), 5, 1000));

        assertThat(outcome.confirm()).isEqualTo(new ConfirmOutcome.Confirmed(ConfirmOutcome.Via.RE_RESERVED));
        assertThat(outcome.lock().holds()).isTrue();
        assertThat(podIndex.get("b1")).as("the pod index while the callback executor is held").isNull();

        LockOutcome again = join(store.lockNode("hop-bind", "ns", "pod-b1", 6, 1000));
        assertThat(again.holds()).as("a lock call, answered while the callback executor is held").isTrue();

        callbacks.release();
        passes(Duration.ofSeconds(10), () -> assertThat(podIndex.get("b1")).isEqualTo("hop-bind"));
    }

    /** The store's callback executor, which the test can hold: held tasks wait until {@link #release}. */
    private static final class HeldExecutor implements Executor {

        final ExecutorService pool = Executors.newFixedThreadPool(2, task -> {
            Thread t = new Thread(task, "hops-test-callback");
            t.setDaemon(true);
            return t;
        });
        private final Queue<Runnable> held = new ArrayDeque<>();
        private boolean holding;

        @Override
        public void execute(Runnable task) {
            synchronized (this) {
                if (holding) {
                    held.add(task);
                    return;
                }
            }
            pool.execute(task);
        }

        synchronized void hold() {
            holding = true;
        }

        synchronized int heldCount() {
            return held.size();
        }

        void release() {
            Queue<Runnable> run;
            synchronized (this) {
                holding = false;
                run = new ArrayDeque<>(held);
                held.clear();
            }
            run.forEach(pool::execute);
        }
    }
}
