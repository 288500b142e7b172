package io.vgpu.gateway.core.filter;

import io.vgpu.state.model.PodAllocation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The primitive-key ranking orders exactly as HAMi's comparator sorted stably. */
class RankingTest {

    private static final float[] AWKWARD = {0.0f, -0.0f, 1.5f, -1.5f, 29.999998f, 30f, Float.MIN_VALUE,
            -Float.MIN_VALUE, Float.MAX_VALUE, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN};

    @ParameterizedTest(name = "node policy \"{0}\"")
    @ValueSource(strings = {"binpack", "spread", "", "Spread", "other"})
    void ranksAsTheStableComparatorSort(String policy) {
        Random rnd = new Random(policy.hashCode());
        for (int round = 0; round < 2_000; round++) {
            int n = rnd.nextInt(60);
            List<Candidate> fits = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                float score = switch (rnd.nextInt(3)) {
                    case 0 -> AWKWARD[rnd.nextInt(AWKWARD.length)];
                    case 1 -> rnd.nextInt(6) / 2f; // many ties
                    default -> rnd.nextFloat() * 30f;
                };
                fits.add(candidate("n" + i, score));
            }
            assertSameOrder(Ranking.bestFirst(fits, policy), Ranking.byComparator(fits, policy));
        }
    }

    @ParameterizedTest(name = "node policy \"{0}\"")
    @ValueSource(strings = {"binpack", "spread", ""})
    void fitsAtRequestPositionsRankAsTheListOfFits(String policy) {
        // RankState's form: the fits among other positions, by position, with their scores in an array
        Random rnd = new Random(policy.hashCode() + 1);
        for (int round = 0; round < 2_000; round++) {
            int n = rnd.nextInt(60);
            List<Candidate> byPosition = new ArrayList<>(n);
            List<Candidate> fits = new ArrayList<>();
            float[] scores = new float[n];
            int[] fitAt = new int[n];
            int k = 0;
            for (int p = 0; p < n; p++) {
                if (rnd.nextInt(4) == 0) {
                    byPosition.add(null); // not a fit: never read
                    continue;
                }
                float score = rnd.nextBoolean() ? AWKWARD[rnd.nextInt(AWKWARD.length)] : rnd.nextInt(6) / 2f;
                Candidate c = candidate("n" + p, score);
                byPosition.add(c);
                fits.add(c);
                scores[p] = score;
                fitAt[k++] = p;
            }
            assertSameOrder(Ranking.bestFirst(byPosition, java.util.Arrays.copyOf(fitAt, k), scores, policy),
                    Ranking.byComparator(fits, policy));
        }
    }

    @Test
    void readFromAnyPositionFirstTheRankingIsTheComparatorsOrder() {
        // the first positions come from one pass, the rest from a sort made when first read: read the last ones
        // first, then the first, then all, over lists longer than the head and with many ties
        Random rnd = new Random(7);
        for (int round = 0; round < 500; round++) {
            int n = 1 + rnd.nextInt(3 * Ranking.Ranked.HEAD);
            List<Candidate> fits = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                fits.add(candidate("n" + i, rnd.nextBoolean() ? rnd.nextInt(4) : rnd.nextFloat() * 30f));
            }
            List<Candidate> expected = Ranking.byComparator(fits, "binpack");
            List<Candidate> ranked = Ranking.bestFirst(fits, "binpack");
            boolean lastFirst = rnd.nextBoolean();
            for (int k = 0; k < n; k++) {
                int i = lastFirst ? n - 1 - k : k;
                assertThat(ranked.get(i)).as("round %d position %d of %d", round, i, n).isSameAs(expected.get(i));
            }
            assertSameOrder(ranked, expected);
            assertThat(new FilterDecision.Fits(ranked, java.util.Map.of()).ranked()).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void tiesGoToTheLaterNodeAndSignedZerosTie() {
        List<Candidate> fits = List.of(candidate("a", 0.0f), candidate("b", -0.0f), candidate("c", 1f),
                candidate("d", 1f));
        assertThat(Ranking.bestFirst(fits, "binpack")).extracting(Candidate::node).containsExactly("d", "c", "b", "a");
        assertThat(Ranking.bestFirst(fits, "spread")).extracting(Candidate::node).containsExactly("b", "a", "d", "c");
    }

    @ParameterizedTest(name = "node policy \"{0}\"")
    @ValueSource(strings = {"binpack", "spread"})
    void aNaNScoreRanksLastAndTiesWithNaN(String policy) {
        List<Candidate> fits = List.of(candidate("a", 2f), candidate("b", Float.NaN), candidate("c", 1f),
                candidate("d", Float.NaN), candidate("e", Float.NEGATIVE_INFINITY));
        List<String> numbers = policy.equals("spread") ? List.of("e", "c", "a") : List.of("a", "c", "e");
        List<String> expected = new ArrayList<>(numbers);
        expected.addAll(List.of("d", "b")); // ties: the later node first
        assertThat(Ranking.bestFirst(fits, policy)).extracting(Candidate::node).containsExactlyElementsOf(expected);
        assertThat(Ranking.byComparator(fits, policy)).extracting(Candidate::node)
                .containsExactlyElementsOf(expected);
    }

    @Test
    void manyNaNScoresNeitherThrowNorMoveTheNumbers() {
        // a stable sort under HAMi's Less (NaN equal to everything) throws from 32 elements on
        List<Candidate> fits = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            fits.add(candidate("n" + i, i % 3 == 0 ? Float.NaN : i));
        }
        List<Candidate> ranked = Ranking.bestFirst(fits, "binpack");
        assertSameOrder(ranked, Ranking.byComparator(fits, "binpack"));
        assertThat(ranked.get(0).node()).isEqualTo("n199");
        assertThat(ranked.subList(133, 200)).allMatch(c -> Float.isNaN(c.score()));
    }

    @Test
    void aNaNScoreAtARequestPositionRanksAsInTheListOfFits() {
        List<Candidate> byPosition = java.util.Arrays.asList(candidate("a", 2f), null, candidate("b", Float.NaN),
                candidate("c", 1f));
        List<Candidate> fits = List.of(byPosition.get(0), byPosition.get(2), byPosition.get(3));
        assertSameOrder(Ranking.bestFirst(byPosition, new int[]{0, 2, 3}, new float[]{2f, 0f, Float.NaN, 1f},
                "binpack"), Ranking.byComparator(fits, "binpack"));
    }

    private static void assertSameOrder(List<Candidate> actual, List<Candidate> expected) {
        assertThat(actual).hasSameSizeAs(expected);
        for (int i = 0; i < actual.size(); i++) {
            assertThat(actual.get(i)).as("position %d", i).isSameAs(expected.get(i));
        }
    }

    private static Candidate candidate(String node, float score) {
        return new Candidate(node, score, new PodAllocation(List.of(List.of()), 0), List.of());
    }
}
