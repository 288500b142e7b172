package io.vgpu.gateway.core.filter;

import io.vgpu.gateway.core.score.NodeScore;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * HAMi's node ranking (spec §10.3): the fitting nodes sorted with {@link NodeScore#less}, stably (among equal scores
 * the later node in the request sorts last, i.e. ranks first), then reversed so that the node HAMi answers comes
 * first. Pure.
 *
 * <p>The sort runs on one primitive key per node, {@code (score as an ordered int, position in the request)}, which
 * orders exactly as the stable comparator sort: the position breaks ties as stability would, scores compare as
 * {@code <} does once {@code -0.0} is made {@code +0.0} (the only two floats {@code <} calls equal that differ in
 * bits), and the spread policy sorts the negated scores (negation is exact).
 *
 * <p>A NaN score ranks last, after every number, and NaNs among themselves as ties. HAMi's {@code Less} calls NaN equal
 * to every score, which is no order at all: Go's sort answers with some order that depends on its algorithm, and
 * Java's stable sort throws ("Comparison method violates its general contract") on lists of 32 or more. Today's
 * scorer cannot give NaN (a zero total scores 0); this keeps a future one from failing the filter. A deviation only
 * where HAMi's own order is undefined.
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
            keys[i] = key(fits.get(i).score(), higherFirst, i);
        }
        return new Ranked(fits, keys);
    }

    /**
     * {@link #bestFirst(List, String)} over the fitting positions of a request: {@code byPosition.get(p)} is the
     * candidate at request position {@code p}, {@code fitAt} the fitting positions in request order and
     * {@code scores[p]} their scores. The position breaks ties as the index in the list of fits does (both follow
     * request order), so the order is the same.
     */
    static List<Candidate> bestFirst(List<Candidate> byPosition, int[] fitAt, float[] scores, String nodePolicy) {
        boolean higherFirst = NodeScore.less(nodePolicy, 1f, 0f);
        long[] keys = new long[fitAt.length];
        for (int i = 0; i < fitAt.length; i++) {
            keys[i] = key(scores[fitAt[i]], higherFirst, fitAt[i]);
        }
        return new Ranked(byPosition, keys);
    }

    /** The reference: HAMi's comparator as a stable list sort, reversed; NaN below every score (see above). */
    static List<Candidate> byComparator(List<Candidate> fits, String nodePolicy) {
        List<Candidate> sorted = new ArrayList<>(fits);
        sorted.sort((a, b) -> {
            boolean aNaN = Float.isNaN(a.score());
            boolean bNaN = Float.isNaN(b.score());
            if (aNaN || bNaN) {
                return Boolean.compare(bNaN, aNaN);
            }
            return NodeScore.less(nodePolicy, a.score(), b.score()) ? -1
                    : NodeScore.less(nodePolicy, b.score(), a.score()) ? 1 : 0;
        });
        List<Candidate> out = new ArrayList<>(sorted.size());
        for (int i = sorted.size() - 1; i >= 0; i--) {
            out.add(sorted.get(i));
        }
        return out;
    }

    /** The ranking key: larger ranks first; the low half is the position, so ties go to the later node. */
    private static long key(float score, boolean higherFirst, int position) {
        int high = Float.isNaN(score) ? Integer.MIN_VALUE : ordered(higherFirst ? -score : score);
        return ((long) high << 32) | position;
    }

    /**
     * An int that orders as the float does under {@code <}, for any float but NaN; never {@code Integer.MIN_VALUE}
     * (negative infinity is {@code 0x807fffff}), which {@link #key} leaves to NaN.
     */
    private static int ordered(float f) {
        int bits = Float.floatToIntBits(f + 0.0f); // -0.0 + 0.0 is +0.0
        return bits < 0 ? bits ^ 0x7fffffff : bits;
    }

    /**
     * The candidates best first, by their keys (unique: the low half is the position). The filter reads only the
     * first few (the node it reserves, and the next ones after a lost race): those are picked in one pass; the whole
     * order (the FilteringSucceed event lists every fit) is sorted the first time a later position is read. Both
     * come from the same keys, so they agree. Immutable; thread-safe (the event reads it on a worker).
     */
    static final class Ranked extends AbstractList<Candidate> implements RandomAccess {

        /** Positions answered without the full sort: above the reservation attempts a filter makes. */
        static final int HEAD = 8;

        /** The candidates, indexed by the keys' low half (the index in the fits, or the request position). */
        private final List<Candidate> fits;
        private final long[] head;
        private final long[] keys;
        private boolean sorted;

        private Ranked(List<Candidate> fits, long[] keys) {
            this.fits = fits;
            this.keys = keys;
            this.head = largestFirst(keys, Math.min(HEAD, keys.length));
        }

        /** The {@code k} largest keys, largest first: one pass, each key inserted into a short sorted array. */
        private static long[] largestFirst(long[] keys, int k) {
            long[] top = new long[k];
            int filled = 0;
            for (long key : keys) {
                if (filled == k && key <= top[k - 1]) {
                    continue;
                }
                int at = filled < k ? filled++ : k - 1;
                while (at > 0 && top[at - 1] < key) {
                    top[at] = top[at - 1];
                    at--;
                }
                top[at] = key;
            }
            return top;
        }

        @Override
        public Candidate get(int index) {
            if (index < head.length) {
                return fits.get((int) head[index]);
            }
            return fits.get((int) sortedKeys()[keys.length - 1 - index]);
        }

        @Override
        public int size() {
            return keys.length;
        }

        private synchronized long[] sortedKeys() {
            if (!sorted) {
                Arrays.sort(keys);
                sorted = true;
            }
            return keys;
        }
    }
}
