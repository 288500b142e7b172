package io.vgpu.loadtest.chaos;

import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * "A pod is charged once" on the union of a round's owner dumps, with the CI-sized run's bounds (10 s stale delay,
 * 3 s checks): a charge on a node other than the pod's placement counts from the placement, less the lag of the
 * dump that shows it; a double charge without a placement counts from its first sighting.
 */
class ChargedOnceCheckTest {

    private static final String STALE = "replica-2";
    private static final String PROMPT = "replica-0";
    private static final long PLACED_AT = 1_000_000L;

    private final ChaosSettings settings = ChaosSettings.ci(Path.of("gateway.jar"), Path.of("target"));
    private final PodRecord pod = new PodRecord("p-1", new Pod(), PLACED_AT - 5_000);
    private final Violations violations = new Violations(0);
    private final ChargedOnce check = new ChargedOnce(settings, Map.of("p-1", pod), violations);

    @Test
    void aChargeLeftOnTheOldNodeInTheStaleOwnersDumpIsAViolationOnceItsCopyIsOlderThanOneMoveAndTheSlack() {
        placedOn("chaos-node-0");

        // the stale owner's copy lags 10 s: 24 s after the placement it may still show the charge the move released
        round(STALE, true, "chaos-node-2", PLACED_AT + 24_000);
        assertThat(violations.all()).isEmpty();

        // first seen 26 s after the placement (a late observation re-charged the old node): caught in that round
        round(STALE, true, "chaos-node-2", PLACED_AT + 26_000);
        assertThat(violations.all()).singleElement().asString()
                .contains("charged-twice", "p-1 Bound on chaos-node-2 in its owner replica-2's dump",
                        "bound to chaos-node-0");
    }

    @Test
    void aPromptOwnersCopyHasNoLag() {
        placedOn("chaos-node-0");

        round(PROMPT, false, "chaos-node-1", PLACED_AT + 14_000);
        assertThat(violations.all()).isEmpty();

        round(PROMPT, false, "chaos-node-1", PLACED_AT + 16_000);
        assertThat(violations.all()).singleElement().asString().contains("in its owner replica-0's dump");
    }

    @Test
    void aChargeOnThePlacedNodeIsNoDoubleCharge() {
        placedOn("chaos-node-0");

        round(PROMPT, false, "chaos-node-0", PLACED_AT + 60_000);
        check.begin();
        check.dump(PROMPT, false, PLACED_AT + 61_000);
        check.bound(PROMPT, false, pod.name + "-uid", pod.name, "chaos-node-0", PLACED_AT + 61_000);
        check.end(true);

        assertThat(violations.all()).isEmpty();
    }

    @Test
    void aPodNotPlacedYetAndBoundOnTwoNodesCountsFromItsFirstSighting() {
        // 5 s move + 10 s slack + 2 checks of 3 s + the 10 s delay (the stale dump is in the round): 31 s
        long first = PLACED_AT;
        twoNodes(first);
        twoNodes(first + 31_000);
        assertThat(violations.all()).isEmpty();

        twoNodes(first + 32_000);
        assertThat(violations.all()).singleElement().asString().contains("Bound on [chaos-node-1, chaos-node-2]",
                "for 32000 ms");
    }

    @Test
    void aDoubleChargeNoLongerSeenIsNoLongerFollowed() {
        twoNodes(PLACED_AT);
        round(PROMPT, false, "chaos-node-1", PLACED_AT + 20_000);
        twoNodes(PLACED_AT + 40_000);
        assertThat(violations.all()).isEmpty();

        check.begin();
        check.dump(PROMPT, false, PLACED_AT + 41_000);
        check.bound(PROMPT, false, pod.name + "-uid", pod.name, "chaos-node-1", PLACED_AT + 41_000);
        check.bound(PROMPT, false, pod.name + "-uid", pod.name, "chaos-node-3", PLACED_AT + 41_000);
        check.end(true);
        assertThat(violations.all()).singleElement().asString().contains("once the run is quiet");
    }

    private void placedOn(String node) {
        pod.placedAtMillis = PLACED_AT;
        pod.node = node;
    }

    /** One round: the given dump shows the pod Bound on {@code node}; the other two show nothing of it. */
    private void round(String replica, boolean stale, String node, long now) {
        check.begin();
        check.dump("replica-1", false, now);
        check.dump(replica, stale, now);
        check.bound(replica, stale, pod.name + "-uid", pod.name, node, now);
        check.end(false);
    }

    /** One round: the prompt replica's dump shows the pod on chaos-node-1, the stale one's on chaos-node-2. */
    private void twoNodes(long now) {
        check.begin();
        check.dump(PROMPT, false, now);
        check.dump(STALE, true, now);
        check.bound(PROMPT, false, pod.name + "-uid", pod.name, "chaos-node-1", now);
        check.bound(STALE, true, pod.name + "-uid", pod.name, "chaos-node-2", now);
        check.end(false);
    }
}
