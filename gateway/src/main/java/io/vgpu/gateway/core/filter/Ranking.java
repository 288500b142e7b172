package io.vgpu.gateway.core.filter;

import io.vgpu.gateway.core.score.NodeScore;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * HAMi's node ranking (spec §10.3): the fitting nodes sorted with {@link NodeScore#less}, stably (among equal scores
 * the later node in the request sorts last, i.e. ranks first), then reversed so that the node HAMi answers comes
 * first. Pure.
 *
 * <p>The sort runs on one primitive key per node, {@code (score as an ordered int, position in the request)}, which
 * orders exactly as the stable comparator sort: the position breaks ties as stability would, scores compare as
 * {@code <} does once {@code -0.0} is made {@code +0.0} (the only two floats {@code <} calls equal that differ in
 * bits), and the spread policy sorts the negated scores (negation is exact). A NaN score, which {@code <} cannot
 * order, takes the comparator sort itself.
 */
final class Ranking {

    private Ranking() {
    }

    /**
     * @param fits       fitting nodes in request order
     * @param nodePolicy the node policy ({@link NodeScore#less})
     * @return the same candidates, best first
     */
    static List<Candidate> bestFirst(List<Candidate> fits, String nodePolicy) {
        boolean higherFirst = NodeScore.less(nodePolicy, 1f, 0f);
        int n = fits.size();
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            float score = fits.get(i).score();
            if (Float.isNaN(score)) {
                return byComparator(fits, nodePolicy);
            }
            keys[i] = ((long) ordered(higherFirst ? -score : score) << 32) | i;
        }
        Arrays.sort(keys);
        List<Candidate> out = new ArrayList<>(n);
        for (int i = n - 1; i >= 0; i--) {
            out.add(fits.get((int) keys[i]));
        }
        return out;
    }

    /** The reference: HAMi's comparator as a stable list sort, reversed. */
    static List<Candidate> byComparator(List<Candidate> fits, String nodePolicy) {
        List<Candidate> sorted = new ArrayList<>(fits);
        sorted.sort((a, b) -> NodeScore.less(nodePolicy, a.score(), b.score()) ? -1
                : NodeScore.less(nodePolicy, b.score(), a.score()) ? 1 : 0);
        List<Candidate> out = new ArrayList<>(sorted.size());
        for (int i = sorted.size() - 1; i >= 0; i--) {
            out.add(sorted.get(i));
        }
        return out;
    }

    /** An int that orders as the float does under {@code <}, for any float but NaN. */
    private static int ordered(float f) {
        int bits = Float.floatToIntBits(f + 0.0f); // -0.0 + 0.0 is +0.0
        return bits < 0 ? bits ^ 0x7fffffff : bits;
    }
}
