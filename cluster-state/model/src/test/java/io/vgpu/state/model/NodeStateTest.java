package io.vgpu.state.model;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

import static io.vgpu.state.model.NodeStateFixtures.NS;
import static io.vgpu.state.model.NodeStateFixtures.node;
import static io.vgpu.state.model.NodeStateFixtures.oneCard;
import static io.vgpu.state.model.NodeStateFixtures.pod;
import static io.vgpu.state.model.NodeStateFixtures.slice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class NodeStateTest {

    private static final long NOW = 100;
    private static final PodAllocation A = slice("g0", 3000);
    private static final PodCharge.Bound A_BOUND = new PodCharge.Bound(A, NS, "pod-a");
    /** A as the decision chose it: the device's index, which the pod devices annotation does not carry. */
    private static final PodAllocation A_DECIDED =
            new PodAllocation(List.of(List.of(new ContainerDevice(5, "g0", Vendor.NVIDIA, 3000, 0))), 0);

    private static PodCharge.Reserved reservedA(PodAllocation allocation, long deadline) {
        return new PodCharge.Reserved(allocation, deadline, NS, "pod-a");
    }

    /**
     * The transition table of one pod ("a") on node n1 (one card g0 of 8000 MiB): state before, change at
     * {@link #NOW}, expected outcome, a's charge after, and whether the value changed.
     */
    @Test
    void sameDevicesComparesWhatTheAnnotationCarries() {
        assertThat(A_DECIDED.sameDevices(A)).isTrue();
        assertThat(A_DECIDED).isNotEqualTo(A);
        assertThat(A.sameDevices(slice("g0", 3000, 10))).as("cores").isFalse();
        assertThat(A.sameDevices(slice("g1", 3000))).as("uuid").isFalse();
        assertThat(A.sameDevices(slice("g0", 2999))).as("memory").isFalse();
        assertThat(A.sameDevices(new PodAllocation(A.containers(), 1))).as("init containers").isFalse();
        assertThat(A.sameDevices(new PodAllocation(List.of(A.containers().get(0), List.of()), 0)))
                .as("the decode's trailing empty container").isTrue();
        assertThat(A.sameDevices(new PodAllocation(List.of(List.of(), A.containers().get(0)), 0)))
                .as("another container").isFalse();
        assertThat(A.sameDevices(new PodAllocation(List.of(A.containers().get(0), A.containers().get(0)), 0)))
                .as("a second container's devices").isFalse();
        assertThat(A.sameDevices(new PodAllocation(List.of(List.of(new ContainerDevice(0, "g0", "other", 3000, 0))),
                0))).as("type").isFalse();
        assertThat(A.sameDevices(null)).isFalse();
    }

    static Stream<Arguments> podTransitions() {
        return Stream.of(
                row("reserve on an empty node", oneCard(),
                        s -> s.reserve(pod("a"), A, NOW, 1000),
                        new ReserveOutcome.Reserved(1000), reservedA(A, 1000), true),
                row("the same reservation again keeps the later deadline and changes nothing",
                        node("n1").card("g0", 8000).reserved("a", A, 1000).build(),
                        s -> s.reserve(pod("a"), A, NOW, 500),
                        new ReserveOutcome.Reserved(1000), reservedA(A, 1000), false),
                row("the same reservation with a later deadline extends it",
                        node("n1").card("g0", 8000).reserved("a", A, 1000).build(),
                        s -> s.reserve(pod("a"), A, NOW, 2000),
                        new ReserveOutcome.Reserved(2000), reservedA(A, 2000), true),
                row("another allocation replaces the pod's own reservation, re-checked without it",
                        node("n1").card("g0", 8000).reserved("a", slice("g0", 6000), 1000).build(),
                        s -> s.reserve(pod("a"), slice("g0", 7000), NOW, 1000),
                        new ReserveOutcome.Reserved(1000), reservedA(slice("g0", 7000), 1000), true),
                row("refused when another pod holds the memory",
                        node("n1").card("g0", 8000).bound("b", slice("g0", 6000)).build(),
                        s -> s.reserve(pod("a"), A, NOW, 1000),
                        new ReserveOutcome.Refused(), null, false),
                row("a refused re-reservation keeps the pod's earlier one",
                        node("n1").card("g0", 8000).reserved("a", A, 1000).bound("b", slice("g0", 4000)).build(),
                        s -> s.reserve(pod("a"), slice("g0", 5000), NOW, 1000),
                        new ReserveOutcome.Refused(), reservedA(A, 1000), false),
                row("an expired reservation of another pod does not block capacity",
                        node("n1").card("g0", 8000).reserved("b", slice("g0", 6000), NOW).build(),
                        s -> s.reserve(pod("a"), A, NOW, 1000),
                        new ReserveOutcome.Reserved(1000), reservedA(A, 1000), true),
                row("refused on an unhealthy card", node("n1").sickCard("g0", 8000).build(),
                        s -> s.reserve(pod("a"), A, NOW, 1000),
                        new ReserveOutcome.Refused(), null, false),
                row("reserve never turns a binding back into a reservation, and names the binding's devices",
                        node("n1").card("g0", 8000).bound("a", A).build(),
                        s -> s.reserve(pod("a"), slice("g0", 1000), NOW, 1000),
                        new ReserveOutcome.AlreadyBound(A), A_BOUND, false),
                row("reserve on an unregistered node", node("n1").unregistered().build(),
                        s -> s.reserve(pod("a"), A, NOW, 1000),
                        new ReserveOutcome.UnknownNode(), null, false),

                row("confirm turns a live reservation into a binding",
                        node("n1").card("g0", 8000).reserved("a", A, NOW + 1).build(),
                        s -> s.confirm(pod("a"), null, NOW),
                        new ConfirmOutcome.Confirmed(ConfirmOutcome.Via.RESERVATION), A_BOUND, true),
                row("confirm of an expired reservation re-checks and binds when it still fits",
                        node("n1").card("g0", 8000).reserved("a", A, NOW).bound("b", slice("g0", 5000)).build(),
                        s -> s.confirm(pod("a"), null, NOW),
                        new ConfirmOutcome.Confirmed(ConfirmOutcome.Via.RE_RESERVED), A_BOUND, true),
                row("confirm of an expired reservation refuses when the capacity is gone",
                        node("n1").card("g0", 8000).reserved("a", A, NOW).bound("b", slice("g0", 6000)).build(),
                        s -> s.confirm(pod("a"), null, NOW),
                        new ConfirmOutcome.Refused(), null, true),
                row("confirm of an expired reservation prefers its own allocation over the fallback",
                        node("n1").card("g0", 8000).reserved("a", A, NOW).build(),
                        s -> s.confirm(pod("a"), slice("g0", 1), NOW),
                        new ConfirmOutcome.Confirmed(ConfirmOutcome.Via.RE_RESERVED), A_BOUND, true),
                row("confirm of a bound pod is idempotent", node("n1").card("g0", 8000).bound("a", A).build(),
                        s -> s.confirm(pod("a"), slice("g0", 1), NOW),
                        new ConfirmOutcome.Confirmed(ConfirmOutcome.Via.ALREADY_BOUND), A_BOUND, false),
                row("confirm without an entry or a fallback", oneCard(),
                        s -> s.confirm(pod("a"), null, NOW),
                        new ConfirmOutcome.Missing(), null, false),
                row("confirm without an entry charges the fallback when it fits", oneCard(),
                        s -> s.confirm(pod("a"), A, NOW),
                        new ConfirmOutcome.Confirmed(ConfirmOutcome.Via.RE_RESERVED), A_BOUND, true),
                row("confirm on an unregistered node", node("n1").unregistered().build(),
                        s -> s.confirm(pod("a"), A, NOW),
                        new ConfirmOutcome.UnknownNode(), null, false),

                row("the informer turns a reservation into a binding",
                        node("n1").card("g0", 8000).reserved("a", A, 1000).build(),
                        s -> s.observeBound(pod("a"), A), true, A_BOUND, true),
                row("the informer's binding again changes nothing", node("n1").card("g0", 8000).bound("a", A).build(),
                        s -> s.observeBound(pod("a"), A), false, A_BOUND, false),
                row("the informer's binding of the decided devices changes nothing (the annotation has no idx)",
                        node("n1").card("g0", 8000).bound("a", A_DECIDED).build(),
                        s -> s.observeBound(pod("a"), A), false, new PodCharge.Bound(A_DECIDED, NS, "pod-a"), false),
                row("the informer's binding of other devices takes the annotation's",
                        node("n1").card("g0", 8000).bound("a", slice("g0", 2000)).build(),
                        s -> s.observeBound(pod("a"), A), true, A_BOUND, true),
                row("the informer's binding is a fact: no capacity check",
                        node("n1").card("g0", 8000).bound("b", slice("g0", 8000)).build(),
                        s -> s.observeBound(pod("a"), A), true, A_BOUND, true),
                row("the informer's binding lands on a node not registered yet", NodeState.absent("n1"),
                        s -> s.observeBound(pod("a"), A), true, A_BOUND, true),

                row("release drops a reservation", node("n1").card("g0", 8000).reserved("a", A, 1000).build(),
                        s -> s.release("a"), true, null, true),
                row("release drops a binding", node("n1").card("g0", 8000).bound("a", A).build(),
                        s -> s.release("a"), true, null, true),
                row("release of nothing is a no-op", oneCard(), s -> s.release("a"), false, null, false),
                row("releaseReservation drops a reservation",
                        node("n1").card("g0", 8000).reserved("a", A, 1000).build(),
                        s -> s.releaseReservation("a"), true, null, true),
                row("releaseReservation keeps a binding (a decision elsewhere is no evidence about it)",
                        node("n1").card("g0", 8000).bound("a", A).build(),
                        s -> s.releaseReservation("a"), false, A_BOUND, false),
                row("releaseReservation of nothing is a no-op", oneCard(), s -> s.releaseReservation("a"), false,
                        null, false),

                row("expire drops a reservation at its deadline",
                        node("n1").card("g0", 8000).reserved("a", A, NOW).bound("b", A).build(),
                        s -> s.expire(NOW), List.of("a"), null, true),
                row("expire keeps a live reservation", node("n1").card("g0", 8000).reserved("a", A, NOW + 1).build(),
                        s -> s.expire(NOW), List.of(), reservedA(A, NOW + 1), false),
                row("expire keeps bindings", node("n1").card("g0", 8000).bound("a", A).build(),
                        s -> s.expire(Long.MAX_VALUE), List.of(), A_BOUND, false));
    }

    private static Arguments row(String name, NodeState before, Function<NodeState, Transition<NodeState, ?>> change,
                                 Object outcome, PodCharge chargeAfter, boolean changed) {
        return arguments(name, before, change, outcome, chargeAfter, changed);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("podTransitions")
    void podChargeTransitions(String name, NodeState before, Function<NodeState, Transition<NodeState, ?>> change,
                              Object outcome, PodCharge chargeAfter, boolean changed) {
        Transition<NodeState, ?> t = change.apply(before);

        assertThat(t.outcome()).isEqualTo(outcome);
        assertThat(t.next().charge("a")).isEqualTo(chargeAfter);
        assertThat(t.changed()).isEqualTo(changed);
        if (!changed) {
            assertThat(t.next()).isSameAs(before);
        } else {
            assertThat(t.next()).isNotEqualTo(before);
        }
    }

    static Stream<Arguments> lockTransitions() {
        NodeLockHolder p = new NodeLockHolder(NS, "p", 50);
        return Stream.of(
                arguments("a free node is acquired", oneCard(), "q", 1000L,
                        new LockOutcome.Acquired(NOW, null), new NodeLockHolder(NS, "q", NOW)),
                arguments("the holder locking again is re-entrant", node("n1").card("g0", 1).locked("p", 50).build(),
                        "p", 1000L, new LockOutcome.Held(50), p),
                arguments("another pod within the timeout is contended", node("n1").card("g0", 1).locked("p", 50).build(),
                        "q", 1000L, new LockOutcome.Contended(p), p),
                arguments("a lock exactly at the timeout still holds", node("n1").card("g0", 1).locked("p", 50).build(),
                        "q", 50L, new LockOutcome.Contended(p), p),
                arguments("a lock past the timeout is taken over", node("n1").card("g0", 1).locked("p", 50).build(),
                        "q", 49L, new LockOutcome.Acquired(NOW, p), new NodeLockHolder(NS, "q", NOW)),
                arguments("an unregistered node cannot be locked", node("n1").unregistered().build(), "q", 1000L,
                        new LockOutcome.UnknownNode(), null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lockTransitions")
    void lockTransitions(String name, NodeState before, String podName, long timeout, LockOutcome outcome,
                         NodeLockHolder holderAfter) {
        Transition<NodeState, LockOutcome> t = before.lockNode(NS, podName, NOW, timeout);

        assertThat(t.outcome()).isEqualTo(outcome);
        assertThat(t.next().lock()).isEqualTo(holderAfter);
        assertThat(t.outcome().holds()).isEqualTo(podName.equals(holderAfter == null ? null : holderAfter.name()));
    }

    static Stream<Arguments> unlockTransitions() {
        return Stream.of(
                arguments("the holder unlocks", node("n1").card("g0", 1).locked("p", 50).build(), "p",
                        new UnlockOutcome.Unlocked(), null),
                arguments("another pod cannot unlock", node("n1").card("g0", 1).locked("p", 50).build(), "q",
                        new UnlockOutcome.NotHolder(new NodeLockHolder(NS, "p", 50)), new NodeLockHolder(NS, "p", 50)),
                arguments("unlocking a free node is a no-op", oneCard(), "p", new UnlockOutcome.NotLocked(), null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unlockTransitions")
    void unlockTransitions(String name, NodeState before, String podName, UnlockOutcome outcome,
                           NodeLockHolder holderAfter) {
        Transition<NodeState, UnlockOutcome> t = before.unlockNode(NS, podName);

        assertThat(t.outcome()).isEqualTo(outcome);
        assertThat(t.next().lock()).isEqualTo(holderAfter);
    }

    @Test
    void confirmAndLockAppliesBothOnAFreeNode() {
        NodeState before = node("n1").card("g0", 8000).reserved("a", A, 1000).build();

        Transition<NodeState, ConfirmLockOutcome> t = before.confirmAndLock(pod("a"), null, NOW, 1000);

        assertThat(t.outcome()).isEqualTo(new ConfirmLockOutcome(
                new ConfirmOutcome.Confirmed(ConfirmOutcome.Via.RESERVATION), new LockOutcome.Acquired(NOW, null)));
        assertThat(t.changed()).isTrue();
        assertThat(t.next().charge("a")).isEqualTo(A_BOUND);
        assertThat(t.next().lock()).isEqualTo(new NodeLockHolder(NS, "pod-a", NOW));
    }

    @Test
    void aContendedConfirmAndLockAppliesNeither() {
        NodeState before = node("n1").card("g0", 8000).reserved("a", A, 1000).locked("p", 50).build();

        Transition<NodeState, ConfirmLockOutcome> t = before.confirmAndLock(pod("a"), null, NOW, 1000);

        assertThat(t.outcome()).isEqualTo(new ConfirmLockOutcome(
                new ConfirmOutcome.Confirmed(ConfirmOutcome.Via.RESERVATION),
                new LockOutcome.Contended(new NodeLockHolder(NS, "p", 50))));
        assertThat(t.outcome().applied()).isFalse();
        assertThat(t.changed()).isFalse();
        assertThat(t.next()).isSameAs(before);
        assertThat(t.next().charge("a")).isEqualTo(reservedA(A, 1000));
    }

    @Test
    void aContendedReReservationChargesNothing() {
        NodeState before = node("n1").card("g0", 8000).locked("p", 50).build();

        Transition<NodeState, ConfirmLockOutcome> t = before.confirmAndLock(pod("a"), A, NOW, 1000);

        assertThat(t.outcome().lock()).isInstanceOf(LockOutcome.Contended.class);
        assertThat(t.next().charges()).isEmpty();
    }

    @Test
    void confirmAndLockTakesNoLockWhenTheConfirmationChargesNothingNow() {
        NodeState bound = node("n1").card("g0", 8000).bound("a", A).build();
        NodeState full = node("n1").card("g0", 8000).bound("b", slice("g0", 6000)).build();

        assertThat(bound.confirmAndLock(pod("a"), null, NOW, 1000).outcome()).isEqualTo(new ConfirmLockOutcome(
                new ConfirmOutcome.Confirmed(ConfirmOutcome.Via.ALREADY_BOUND), null));
        Transition<NodeState, ConfirmLockOutcome> refused = full.confirmAndLock(pod("a"), A, NOW, 1000);
        assertThat(refused.outcome()).isEqualTo(new ConfirmLockOutcome(new ConfirmOutcome.Refused(), null));
        assertThat(refused.next().lock()).isNull();
    }

    @Test
    void aLockOutcomeNeedsAConfirmationThatChargedNow() {
        assertThatThrownBy(() -> new ConfirmLockOutcome(new ConfirmOutcome.Missing(),
                new LockOutcome.Acquired(NOW, null))).isInstanceOf(IllegalArgumentException.class);
    }

    static Stream<Arguments> changesAfterBinding() {
        return Stream.of(
                arguments("reserve", (Function<NodeState, Transition<NodeState, ?>>)
                        s -> s.reserve(pod("a"), slice("g0", 1), NOW, 1000)),
                arguments("reserve later", (Function<NodeState, Transition<NodeState, ?>>)
                        s -> s.reserve(pod("a"), A, Long.MAX_VALUE - 1, Long.MAX_VALUE)),
                arguments("confirm", (Function<NodeState, Transition<NodeState, ?>>)
                        s -> s.confirm(pod("a"), slice("g0", 1), NOW)),
                arguments("expire far in the future", (Function<NodeState, Transition<NodeState, ?>>)
                        s -> s.expire(Long.MAX_VALUE)),
                arguments("lock", (Function<NodeState, Transition<NodeState, ?>>)
                        s -> s.lockNode(NS, "pod-a", NOW, 1)),
                arguments("re-register", (Function<NodeState, Transition<NodeState, ?>>)
                        s -> s.register(new NodeInventory("n1", List.of(), Map.of(), Map.of()))));
    }

    @ParameterizedTest(name = "{0} never turns Bound back into Reserved")
    @MethodSource("changesAfterBinding")
    void boundNeverRegresses(String name, Function<NodeState, Transition<NodeState, ?>> change) {
        NodeState bound = node("n1").card("g0", 8000).bound("a", A).build();

        assertThat(change.apply(bound).next().charge("a")).isEqualTo(A_BOUND);
    }

    @Test
    void registerReplacesTheInventoryAndKeepsChargesAndLock() {
        NodeState before = node("n1").card("g0", 8000).bound("a", A).locked("p", 50).build();
        NodeInventory bigger = new NodeInventory("n1", List.of(NodeStateFixtures.gpu("g0", 16000, true)),
                Map.of("hami.io/device-cordon", "x"), Map.of());

        Transition<NodeState, Boolean> t = before.register(bigger);

        assertThat(t.outcome()).isTrue();
        assertThat(t.next().inventory()).isEqualTo(bigger);
        assertThat(t.next().charges()).isEqualTo(before.charges());
        assertThat(t.next().lock()).isEqualTo(before.lock());
        assertThat(t.next().register(bigger).changed()).isFalse();
    }

    /** Inventories next to n1's (cards g0, g1 in that order; a cordon annotation; one pair score). */
    static Stream<Arguments> inventoriesBesideTheRegisteredOne() {
        GpuDevice g0 = NodeStateFixtures.gpu("g0", 8000, true);
        GpuDevice g1 = NodeStateFixtures.gpu("g1", 8000, true);
        Map<String, String> cordon = Map.of("hami.io/device-cordon", "x");
        Map<String, Map<String, Integer>> scores = Map.of("g0", Map.of("g1", 100));
        return Stream.of(
                arguments("equal (fresh copies)", new NodeInventory("n1", List.of(
                        NodeStateFixtures.gpu("g0", 8000, true), NodeStateFixtures.gpu("g1", 8000, true)),
                        Map.of("hami.io/device-cordon", "x"), Map.of("g0", Map.of("g1", 100))), true),
                arguments("cards in another order", new NodeInventory("n1", List.of(g1, g0), cordon, scores), false),
                arguments("a card unhealthy", new NodeInventory("n1", List.of(g0,
                        NodeStateFixtures.gpu("g1", 8000, false)), cordon, scores), false),
                arguments("a card less", new NodeInventory("n1", List.of(g0), cordon, scores), false),
                arguments("no cordon", new NodeInventory("n1", List.of(g0, g1), Map.of(), scores), false),
                arguments("another pair score", new NodeInventory("n1", List.of(g0, g1), cordon,
                        Map.of("g0", Map.of("g1", 50))), false));
    }

    @ParameterizedTest(name = "{0}: hasInventory {2}, and registering it changes the value iff not")
    @MethodSource("inventoriesBesideTheRegisteredOne")
    void hasInventoryIsExactlyWhenRegisteringChangesNothing(String name, NodeInventory inventory, boolean has) {
        NodeState registered = NodeState.absent("n1").register(new NodeInventory("n1", List.of(
                NodeStateFixtures.gpu("g0", 8000, true), NodeStateFixtures.gpu("g1", 8000, true)),
                Map.of("hami.io/device-cordon", "x"), Map.of("g0", Map.of("g1", 100)))).next()
                .lockNode(NS, "pod-a", NOW, 1).next();

        assertThat(registered.hasInventory(inventory)).isEqualTo(has);
        assertThat(registered.register(inventory).changed()).isEqualTo(!has);
    }

    @Test
    void anUnregisteredNodeHasNoInventoryEvenAnEmptyOne() {
        NodeInventory empty = new NodeInventory("n1", List.of(), Map.of(), Map.of());

        assertThat(NodeState.absent("n1").hasInventory(empty)).isFalse();
        assertThat(NodeState.absent("n1").register(empty).changed()).isTrue();
    }

    @Test
    void registeringAnotherNodesInventoryIsAProgrammingError() {
        NodeInventory other = new NodeInventory("n2", List.of(), Map.of(), Map.of());

        assertThatThrownBy(() -> oneCard().register(other)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void viewAddsEveryChargeToItsCardAndIgnoresUnknownCards() {
        NodeState state = node("n1").card("g0", 8000).card("g1", 8000)
                .reserved("a", slice("g0", 1000, 10), 1000).bound("b", slice("g0", 2000, 20))
                .bound("c", slice("gone", 500)).build();

        NodeView view = state.view();

        assertThat(view.devices()).extracting(DeviceUsage::id, DeviceUsage::used, DeviceUsage::usedmem,
                DeviceUsage::usedcores).containsExactly(
                org.assertj.core.groups.Tuple.tuple("g0", 2, 3000, 30),
                org.assertj.core.groups.Tuple.tuple("g1", 0, 0, 0));
        assertThat(state.usageWithout("b").get(0).usedmem()).isEqualTo(1000);
    }

    @Test
    void aKeyIsVacantOnlyWhenItCarriesNothing() {
        assertThat(NodeState.absent("n1").isVacant()).isTrue();
        assertThat(oneCard().isVacant()).isFalse();
        assertThat(node("n1").unregistered().bound("a", A).build().isVacant()).isFalse();
        assertThat(node("n1").unregistered().locked("p", 1).build().isVacant()).isFalse();
        assertThat(node("n1").unregistered().bound("a", A).build().release("a").next().isVacant()).isTrue();
    }

    @Test
    void reservationsNeverExceedCapacityWhateverTheOrder() {
        NodeState state = oneCard();
        int granted = 0;
        for (int i = 0; i < 20; i++) {
            Transition<NodeState, ReserveOutcome> t = state.reserve(pod("p" + i), slice("g0", 900), NOW, 1000);
            state = t.next();
            granted += t.outcome().isReserved() ? 1 : 0;
        }

        assertThat(granted).isEqualTo(8000 / 900); // memory runs out before the 10 slots
        assertThat(state.view().devices().get(0).usedmem()).isLessThanOrEqualTo(8000);
    }
}
