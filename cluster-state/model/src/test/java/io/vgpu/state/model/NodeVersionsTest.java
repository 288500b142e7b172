package io.vgpu.state.model;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class NodeVersionsTest {

    /** A version written as {@code epoch.counter}. */
    private static long v(long epoch, long counter) {
        return (epoch << NodeVersions.EPOCH_SHIFT) + counter;
    }

    @ParameterizedTest(name = "{0}: value {1}.{2}, past {3}.{4} -> {5}.{6}")
    @CsvSource({
            // the reused version: the survivor holds 0.647, the lost owner published 0.648 (its view shows it)
            "backup promoted past a lost owner's copy,   0, 647, 0, 648, 1, 0",
            // nothing was lost: still a new epoch, so the old owner's late publications (of epoch 0) lose
            "migration in with nothing lost,             0, 647, 0, 647, 1, 0",
            // the same processor again (Hazelcast's retry, the backup's replay after the primary wrote): idempotent
            "the same jump again,                        1, 0, 0, 648, 1, 0",
            "the same jump again after changes,          1, 3, 0, 648, 1, 3",
            // a later owner reads 1.3 and jumps again
            "a second take-over,                         1, 3, 1, 3, 2, 0",
            // lost partition: ingest created the key again at 1 while every view kept 3.648 of the lost value
            "key created again after a lost partition,   0, 1, 3, 648, 4, 0",
            // the new owner's view lags (the stale replica): the caller passes the value's version, the higher
            "the view behind the value,                  2, 9, 2, 9, 3, 0"})
    void aTakeOverJumpsToTheEpochAfterEverythingKnown(String why, long epoch, long counter, long pastEpoch,
                                                      long pastCounter, long nextEpoch, long nextCounter) {
        long current = v(epoch, counter);
        long past = v(pastEpoch, pastCounter);

        long next = NodeVersions.takeOver(current, past);

        assertThat(NodeVersions.format(next)).as(why).isEqualTo(nextEpoch + "." + nextCounter);
        assertThat(next).as("never goes back").isGreaterThanOrEqualTo(current);
        assertThat(next > past || next == current).as("past what was known, or already").isTrue();
        assertThat(NodeVersions.takeOver(next, past)).as("idempotent").isEqualTo(next);
    }

    @Test
    void everyChangeOfTheOldEpochOrdersBelowTheJumpAsPlainNumbers() {
        long jumped = NodeVersions.takeOver(v(0, 647), v(0, 648));

        // summaries and facts are ordered with a plain '>' on the long: the survivor's next change now supersedes
        // every copy a lost owner can have published in epoch 0, however many it published
        NodeSummary lost = new NodeSummary("n1", v(0, 0xFFFF_FFFEL), 0, null, null, false);
        NodeSummary next = new NodeSummary("n1", jumped + 1, 0, null, null, false);
        assertThat(next.supersedes(lost)).isTrue();
        assertThat(lost.supersedes(next)).isFalse();
        assertThat(jumped).isEqualTo(1L << 32);
    }

    @Test
    void versionsBeforeEpochsAndNoneAreEpochZero() {
        assertThat(NodeVersions.epoch(648)).isZero();
        assertThat(NodeVersions.counter(648)).isEqualTo(648);
        assertThat(NodeVersions.epoch(-1)).isZero();
        assertThat(NodeVersions.format(v(3, 648))).isEqualTo("3.648");
        assertThat(NodeVersions.format(-1)).isEqualTo("-1");
        // nothing known (a view with no summary, -1): one epoch past the value's own
        assertThat(NodeVersions.takeOver(5, Math.max(5, -1))).isEqualTo(1L << 32);
    }
}
