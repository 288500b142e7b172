package io.vgpu.loadtest.chaos;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vgpu.state.model.DeviceGrant;
import io.vgpu.state.model.GpuDevice;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The views' invariants with the CI-sized run's bounds (3 s checks, 10 s slack, the stale replica 10 s late): a view
 * is compared with its owner's copy of the same version only, and must move on within the bound.
 */
class ScoredViewsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NODE = "chaos-node-0";
    private static final String CARD = "GPU-chaos-node-0-0";
    private static final long T0 = 1_000_000L;

    private final ChaosSettings settings = ChaosSettings.ci(Path.of("gateway.jar"), Path.of("target"));
    private final Violations violations = new Violations(0);
    private final ScoredViews views = new ScoredViews(settings,
            Map.of(NODE, List.of(new GpuDevice(CARD, 0, 10, 24_000, 100, "T", 0, "hami-core", List.of(), true))),
            violations);

    @Test
    void aViewOfTheOwnersValueMustShowWhatThatValueChargesOnceTheBoundHasPassed() {
        round(T0, 7, List.of(grant(5_000)), List.of(), 7, 1, 5_000);
        assertThat(violations.all()).isEmpty();
        assertThat(views.compared()).isEqualTo(1);

        // the same version, other charges: a failover's reused version for a moment, a miscomputed summary for good
        long bound = views.lagBound(false);
        for (long t = 3_000; t <= bound + 6_000; t += 3_000) {
            round(T0 + t, 8, List.of(grant(5_000), grant(3_000)), List.of(), 8, 1, 5_000);
        }
        assertThat(violations.all()).singleElement().asString()
                .contains("view-mismatch", "version 8", "MiB 5000", "charges slots 2, MiB 8000");
    }

    @Test
    void aReusedVersionThatTheNextChangeRepairsIsNoViolation() {
        round(T0, 8, List.of(grant(5_000), grant(3_000)), List.of(), 8, 1, 5_000);
        round(T0 + 3_000, 9, List.of(grant(5_000)), List.of(), 9, 1, 5_000);
        for (long t = 6_000; t <= 30_000; t += 3_000) {
            round(T0 + t, 9, List.of(grant(5_000)), List.of(), 9, 1, 5_000);
        }
        assertThat(violations.all()).isEmpty();
    }

    @Test
    void aViewOverTheCardsIsAnOverCommitOnlyBeyondThePhantomsAndExpiredReservationsOfThatValue() {
        List<DeviceGrant> five = List.of(grant(5_000), grant(5_000), grant(5_000), grant(5_000), grant(5_000));
        // 25,000 MiB on a 24,000 MiB card, one of them a phantom of this very value: fine
        round(T0, 3, five, List.of(grant(5_000)), 3, 5, 25_000);
        assertThat(violations.all()).isEmpty();

        round(T0 + 3_000, 4, five, List.of(), 4, 5, 25_000);
        assertThat(violations.all()).singleElement().asString()
                .contains("over-commit", "view of replica-0", "MiB 25000/24000");
    }

    @Test
    void aViewBehindItsOwnerUnderChurnIsFineWhileItMovesOn() {
        // the view is always a little behind (the dumps of one round are seconds apart), but it keeps moving
        for (int i = 0; i < 20; i++) {
            round(T0 + i * 3_000L, 10 + 2 * i, List.of(grant(5_000)), List.of(), 10 + 2 * i - 1, 1, 4_000);
        }
        assertThat(violations.all()).isEmpty();
        assertThat(views.compared()).isZero();
    }

    @Test
    void aViewStuckOnOneVersionIsStaleOnceTheBoundHasPassed() {
        long bound = views.lagBound(false);
        for (long t = 0; t <= bound; t += 3_000) {
            round(T0 + t, 20 + t / 1_000, List.of(grant(5_000)), List.of(), 9, 1, 4_000);
        }
        assertThat(violations.all()).isEmpty();

        round(T0 + bound + 3_000, 99, List.of(grant(5_000)), List.of(), 9, 1, 4_000);
        assertThat(violations.all()).singleElement().asString().contains("view-stale", "at version 9");
    }

    @Test
    void aViewAheadOfAKeyCreatedAgainIsStaleOnceTheBoundHasPassed() {
        // the node's key was created again at version 1 while this view kept version 90 of the old key
        long bound = views.lagBound(false);
        for (long t = 0; t <= bound + 3_000; t += 3_000) {
            round(T0 + t, 1 + t / 3_000, List.of(grant(5_000)), List.of(), 90, 1, 4_000);
        }
        assertThat(violations.all()).singleElement().asString().contains("view-stale", "at version 90");
    }

    @Test
    void aTakeOversEpochJumpIsFollowedLikeAnyNewerVersion() {
        // the store's take-over (NodeVersions): the view holds 0.648 of a value lost with its owner, the promoted
        // copy is at 0.647 and jumps to epoch 1 (2^32 as a number); the view follows it there and on
        long epoch1 = 1L << 32;
        round(T0, 647, List.of(grant(5_000)), List.of(), 648, 2, 7_000);
        round(T0 + 3_000, epoch1, List.of(grant(5_000)), List.of(), 648, 2, 7_000);
        round(T0 + 6_000, epoch1 + 1, List.of(grant(5_000), grant(1_000)), List.of(), epoch1, 1, 5_000);
        for (long t = 9_000; t <= 45_000; t += 3_000) {
            round(T0 + t, epoch1 + 1, List.of(grant(5_000), grant(1_000)), List.of(), epoch1 + 1, 2, 6_000);
        }
        assertThat(violations.all()).isEmpty();
        assertThat(views.compared()).isEqualTo(13);
    }

    @Test
    void aStaleOwnersCopyBehindAPromptViewIsFineWhileItCatchesUp() {
        // the stale owner's copy runs 10 s late: a prompt view is ahead of it the whole time, and both move
        for (int i = 0; i < 20; i++) {
            views.begin();
            views.owner("replica-2", true, NODE, 100 + 3 * i, T0 + i * 3_000L, List.of(List.of(grant(5_000))),
                    List.of());
            views.view("replica-0", false, T0 + i * 3_000L, viewNodes(130 + 3 * i));
            views.end();
        }
        assertThat(violations.all()).isEmpty();
    }

    @Test
    void theStaleReplicasViewMayLagTwiceItsDelayMore() {
        assertThat(views.lagBound(true) - views.lagBound(false)).isEqualTo(20_000);
    }

    /** One round: the owner's copy (replica-1) at {@code ownerVersion}, replica-0's view at {@code viewVersion}. */
    private void round(long now, long ownerVersion, List<DeviceGrant> charges, List<DeviceGrant> excused,
                       long viewVersion, int viewSlots, int viewMiB) {
        views.begin();
        views.owner("replica-1", false, NODE, ownerVersion, now, charges.stream().map(List::of).toList(),
                excused.stream().map(List::of).toList());
        views.view("replica-0", false, now, viewNodes(viewVersion, viewSlots, viewMiB));
        views.end();
    }

    private static ArrayNode viewNodes(long version) {
        return viewNodes(version, 1, 5_000);
    }

    private static ArrayNode viewNodes(long version, int slots, int mib) {
        ArrayNode nodes = JSON.createArrayNode();
        ObjectNode node = nodes.addObject().put("name", NODE).put("version", version);
        node.putArray("devices").addObject().put("id", CARD).put("used", slots).put("usedmem", mib)
                .put("usedcores", 0);
        return nodes;
    }

    private static DeviceGrant grant(int mib) {
        return new DeviceGrant(CARD, "T", mib, 0, 1);
    }
}
