package io.vgpu.gateway.testing;

import io.vgpu.state.model.ConfirmOutcome;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.LockOutcome;
import io.vgpu.state.model.NodeInventory;
import io.vgpu.state.model.NodeLockHolder;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodRef;
import io.vgpu.state.model.QuotaLimits;
import io.vgpu.state.model.QuotaOutcome;
import io.vgpu.state.model.ReserveOutcome;
import io.vgpu.state.model.UnlockOutcome;
import io.vgpu.state.model.fixtures.GpuFixtures;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import static org.assertj.core.api.Assertions.assertThat;

class InMemoryClusterStateTest {

    private static final GpuDevice CARD = GpuFixtures.card("g0").memMiB(8000).type("NVIDIA A100").build();

    private static PodAllocation slice(int mem) {
        return new PodAllocation(List.of(List.of(new ContainerDevice(0, "g0", "NVIDIA", mem, 0))), 0);
    }

    private static PodRef pod(String uid) {
        return new PodRef(uid, "ns", "pod-" + uid);
    }

    /** The in-memory state answers before it returns: a stage still open is a defect, not something to wait for. */
    private static <T> T answered(CompletionStage<T> stage) {
        CompletableFuture<T> answer = stage.toCompletableFuture();
        assertThat(answer).as("answered synchronously").isDone();
        return answer.getNow(null);
    }

    private static InMemoryClusterState withNodes(String... names) {
        InMemoryClusterState state = new InMemoryClusterState();
        for (String name : names) {
            answered(state.registerNode(new NodeInventory(name, List.of(CARD), Map.of(), Map.of())));
        }
        return state;
    }

    @Test
    void reservationsNeverOvercommitACard() {
        InMemoryClusterState state = withNodes("n1");

        assertThat(answered(state.reserve("n1", pod("a"), slice(5000), 0, 10)))
                .isEqualTo(new ReserveOutcome.Reserved(10));
        assertThat(answered(state.reserve("n1", pod("b"), slice(5000), 0, 10))).isEqualTo(new ReserveOutcome.Refused());
        assertThat(answered(state.reserve("n1", pod("c"), slice(3000), 0, 10)).isReserved()).isTrue();
        assertThat(state.node("n1").devices().get(0).usedmem()).isEqualTo(8000);
    }

    @Test
    void reReservingTheSamePodReplacesItsOwnChargeAndReleaseIsIdempotent() {
        InMemoryClusterState state = withNodes("n1");
        answered(state.reserve("n1", pod("a"), slice(6000), 0, 10));

        assertThat(answered(state.reserve("n1", pod("a"), slice(7000), 0, 10)).isReserved()).isTrue();
        assertThat(state.node("n1").devices().get(0).usedmem()).isEqualTo(7000);
        assertThat(answered(state.release("n1", "a"))).isTrue();
        assertThat(answered(state.release("n1", "a"))).isFalse();
        assertThat(state.node("n1").devices().get(0).used()).isZero();
        assertThat(answered(state.podNode("a"))).isEmpty();
    }

    @Test
    void refusedReReservationKeepsThePreviousCharge() {
        InMemoryClusterState state = withNodes("n1");
        answered(state.reserve("n1", pod("a"), slice(2000), 0, 10));

        assertThat(answered(state.reserve("n1", pod("a"), slice(9000), 0, 10))).isEqualTo(new ReserveOutcome.Refused());
        assertThat(state.podsOn("n1")).containsOnlyKeys("a");
        assertThat(state.node("n1").devices().get(0).usedmem()).isEqualTo(2000);
    }

    @Test
    void unknownNodeIsAnOutcomeAndCreatesNothing() {
        InMemoryClusterState state = new InMemoryClusterState();

        assertThat(answered(state.reserve("nope", pod("a"), slice(1), 0, 10)))
                .isEqualTo(new ReserveOutcome.UnknownNode());
        assertThat(state.nodeState("nope")).isNull();
        assertThat(state.node("nope")).isNull();
    }

    @Test
    void aMovedPodIsFoundThroughTheIndexAndReleasedFromItsOldNode() {
        InMemoryClusterState state = withNodes("n1", "n2");
        answered(state.reserve("n1", pod("a"), slice(6000), 0, 10));

        Optional<String> old = answered(state.podNode("a"));
        answered(state.reserve("n2", pod("a"), slice(6000), 0, 10));
        answered(state.release(old.orElseThrow(), "a"));

        assertThat(old).contains("n1");
        assertThat(answered(state.podNode("a"))).contains("n2");
        assertThat(state.podsOn("n1")).isEmpty();
        assertThat(state.podsOn("n2")).containsOnlyKeys("a");
    }

    @Test
    void confirmBindsAndAnExpiredReservationIsReChecked() {
        InMemoryClusterState state = withNodes("n1");
        answered(state.reserve("n1", pod("a"), slice(5000), 0, 10));
        answered(state.reserve("n1", pod("b"), slice(5000), 20, 30)); // a expired at 20: b fits

        assertThat(answered(state.confirm("n1", pod("b"), null, 25)))
                .isEqualTo(new ConfirmOutcome.Confirmed(ConfirmOutcome.Via.RESERVATION));
        assertThat(answered(state.confirm("n1", pod("a"), null, 25))).isEqualTo(new ConfirmOutcome.Missing());
        assertThat(answered(state.confirm("n1", pod("a"), slice(5000), 25))).isEqualTo(new ConfirmOutcome.Refused());
        assertThat(answered(state.confirm("n1", pod("b"), null, 99)))
                .isEqualTo(new ConfirmOutcome.Confirmed(ConfirmOutcome.Via.ALREADY_BOUND));
        assertThat(state.isBound("n1", "b")).isTrue();
        assertThat(state.node("n1").devices().get(0).usedmem()).isEqualTo(5000);
    }

    @Test
    void sweepDropsExpiredReservationsAndQuotaChargesButKeepsBindings() {
        InMemoryClusterState state = withNodes("n1");
        answered(state.reserve("n1", pod("a"), slice(1000), 0, 10));
        answered(state.observeBound("n1", pod("b"), slice(1000)));
        answered(state.reserveQuota("ns", "a", 1000, 0, 0, 10));

        assertThat(answered(state.sweepExpired(10))).isEqualTo(2);
        assertThat(state.podsOn("n1")).containsOnlyKeys("b");
        assertThat(state.quota("ns").charges()).isEmpty();
        assertThat(answered(state.podNode("a"))).isEmpty();
    }

    @Test
    void lockIsDecidedInTheSharedStateAndReleasedOnlyByItsHolder() {
        InMemoryClusterState state = withNodes("n1");

        assertThat(answered(state.lockNode("n1", "ns", "p", 100, 1000))).isEqualTo(new LockOutcome.Acquired(100, null));
        assertThat(answered(state.lockNode("n1", "ns", "q", 200, 1000)))
                .isEqualTo(new LockOutcome.Contended(new NodeLockHolder("ns", "p", 100)));
        assertThat(answered(state.unlockNode("n1", "ns", "q"))).isInstanceOf(UnlockOutcome.NotHolder.class);
        assertThat(answered(state.unlockNode("n1", "ns", "p"))).isEqualTo(new UnlockOutcome.Unlocked());
        assertThat(answered(state.lockNode("n1", "ns", "q", 300, 1000)).holds()).isTrue();
    }

    @Test
    void quotaIsReservedPerPodAndRolledBack() {
        InMemoryClusterState state = withNodes("n1");
        answered(state.setQuotaLimits("ns", new QuotaLimits(8000, true, 0, false)));

        assertThat(answered(state.reserveQuota("ns", "a", 6000, 0, 0, 10)).isReserved()).isTrue();
        assertThat(answered(state.reserveQuota("ns", "a", 6000, 0, 0, 10)).isReserved()).isTrue();
        assertThat(answered(state.reserveQuota("ns", "b", 6000, 0, 0, 10)))
                .isEqualTo(new QuotaOutcome.Exceeded(true, false));
        assertThat(answered(state.releaseQuota("ns", "a"))).isTrue();
        assertThat(answered(state.reserveQuota("ns", "b", 6000, 0, 0, 10)).isReserved()).isTrue();
        assertThat(state.quota("ns").memory().used()).isEqualTo(6000);
    }

    @Test
    void removeNodeForgetsItAndItsPods() {
        InMemoryClusterState state = withNodes("n1");
        answered(state.observeBound("n1", pod("a"), slice(1000)));

        assertThat(answered(state.removeNode("n1"))).isTrue();
        assertThat(answered(state.removeNode("n1"))).isFalse();
        assertThat(state.nodes()).isEmpty();
        assertThat(answered(state.podNode("a"))).isEmpty();
    }
}
