package io.vgpu.loadtest.chaos;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * "Every placed pod not deleted is charged on its node in its owner's dump", with the CI-sized run's bounds (10 s
 * stale delay): one ingest and the slack (15 s) from the later of the placement and the first round that saw the
 * node's owner; on the stale owner one delay more, on a copy one delay late.
 */
class ChargedWherePlacedCheckTest {

    private static final String NODE = "chaos-node-0";
    private static final long PLACED_AT = 1_000_000L;

    private final ChaosSettings settings = ChaosSettings.ci(Path.of("gateway.jar"), Path.of("target"));
    private final PodRecord pod = new PodRecord("p-1", new PodBuilder().withMetadata(new ObjectMetaBuilder()
            .withName("p-1").withUid("uid-1").build()).build(), PLACED_AT - 5_000);
    private final Violations violations = new Violations(0);
    private final ChargedWherePlaced check = new ChargedWherePlaced(settings, Map.of("p-1", pod), violations);

    @Test
    void aPlacedPodMissingFromItsOwnersDumpIsAViolationPastOneIngestAndTheSlack() {
        placed();
        round("replica-0#1", false, PLACED_AT, false);
        round("replica-0#1", false, PLACED_AT + 15_000, false);
        assertThat(violations.all()).isEmpty();

        round("replica-0#1", false, PLACED_AT + 16_000, false);
        assertThat(violations.all()).singleElement().asString()
                .contains("uncharged", "p-1, bound to chaos-node-0 16000 ms before", "owner replica-0#1");
    }

    @Test
    void aChargedPodIsNoViolation() {
        placed();
        round("replica-0#1", false, PLACED_AT, true);
        round("replica-0#1", false, PLACED_AT + 60_000, true);
        assertThat(violations.all()).isEmpty();
    }

    @Test
    void aNewOwnerGetsOneIngestAndTheSlackFromItsFirstRound() {
        placed();
        round("replica-0#1", false, PLACED_AT + 10_000, true);
        // every replica restarted: the state is rebuilt from the API server by the new owner
        round("replica-1#2", false, PLACED_AT + 100_000, false);
        round("replica-1#2", false, PLACED_AT + 115_000, false);
        assertThat(violations.all()).isEmpty();

        round("replica-1#2", false, PLACED_AT + 116_000, false);
        assertThat(violations.all()).singleElement().asString().contains("16000 ms after that owner was first seen");
    }

    @Test
    void theStaleOwnerHasOneDelayToIngestAndItsCopyIsOneDelayLate() {
        placed();
        round("replica-2#1", true, PLACED_AT, false);
        round("replica-2#1", true, PLACED_AT + 35_000, false);
        assertThat(violations.all()).isEmpty();

        round("replica-2#1", true, PLACED_AT + 36_000, false);
        assertThat(violations.all()).singleElement().asString().contains("a copy 10000 ms late", "bound 25000 ms");
    }

    @Test
    void aPodTheDriverIsEndingOrANodeWithoutAReadyOwnerIsNotChecked() {
        placed();
        check.begin();
        check.end();
        assertThat(violations.all()).as("no owner dumped the node").isEmpty();

        pod.endingAtMillis = PLACED_AT + 20_000;
        round("replica-0#1", false, PLACED_AT, false);
        round("replica-0#1", false, PLACED_AT + 60_000, false);
        assertThat(violations.all()).isEmpty();
    }

    private void placed() {
        pod.node = NODE;
        pod.placedAtMillis = PLACED_AT;
        pod.phase = PodRecord.Phase.RUNNING;
    }

    private void round(String owner, boolean stale, long now, boolean charged) {
        check.begin();
        check.owner(owner, stale, NODE, now);
        if (charged) {
            check.bound("uid-1", NODE);
        }
        check.end();
    }
}
