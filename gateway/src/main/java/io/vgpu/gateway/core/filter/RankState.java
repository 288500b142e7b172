package io.vgpu.gateway.core.filter;

import io.vgpu.gateway.core.reason.NodeReason;
import io.vgpu.gateway.core.reason.NodeRejection;
import io.vgpu.state.model.NodeView;

import java.util.AbstractList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.Set;

/**
 * One pod shape's last filter call, whole: the requested names, each position's outcome, and the mark of the view log
 * ({@link ViewSource}) taken before its views were read. The next call of the shape that lists the very same names
 * (kube-scheduler's {@code NodeNames} repeat, and {@code RepeatedNames} hands out the same {@code String}s) redoes
 * only the positions whose node changed since that mark and builds its answer from primitive arrays. Why: at 5,000
 * nodes, reading every node's view and every kept outcome (several cache misses each) was the largest cost of a
 * filter (2026-12-07 profile), while only a few nodes change between two calls.
 *
 * <p><b>Why the answer is the one a full walk gives:</b> every position's outcome was computed from a view at least as
 * new as the view the node had when the state's mark was taken (the mark is read first, and the log records a
 * change after the new view is in place); a node whose view changed since is in the log after the mark, and is redone
 * from its current view. The answer is then a full walk's over views no older than the mark: what a walk started at
 * the mark could have read. A view changing during the call is recorded after this call's mark, so the next call
 * redoes it. The ranking and the failed nodes come out in request order, as in the full walk.
 *
 * <p>Immutable once built (each call that changes positions makes copies): concurrent calls of a shape each build their
 * own, and whichever is kept last is consistent in itself.
 */
final class RankState {

    private static final byte FIT = 0;
    private static final byte REJECTED = 1;
    private static final byte UNREGISTERED = 2;

    /** Computes a position's outcome from the node's current view (null view: not registered). */
    interface Rescore {
        /** The outcome of requesting {@code node} at {@code position} with {@code view}; null when it is null. */
        VerdictCache.Outcome outcome(int position, String node, NodeView view);
    }

    /** The source the views were read from: its log's marks mean nothing to another source. */
    private final ViewSource source;
    private final NameIndex names;
    private final VerdictCache.Outcome[] outcomes;
    private final float[] scores;
    private final byte[] kinds;
    private final int fitCount;
    private final long mark;

    private RankState(ViewSource source, NameIndex names, VerdictCache.Outcome[] outcomes, float[] scores, byte[] kinds,
                      int fitCount, long mark) {
        this.source = source;
        this.names = names;
        this.outcomes = outcomes;
        this.scores = scores;
        this.kinds = kinds;
        this.fitCount = fitCount;
        this.mark = mark;
    }

    /**
     * The state of a full walk: {@code outcomes[i]} is the outcome of the {@code i}th of {@code names} (null: not
     * registered), read after {@code mark} was taken. The array is handed over, not copied.
     */
    static RankState of(ViewSource source, NameIndex names, VerdictCache.Outcome[] outcomes, long mark) {
        int n = outcomes.length;
        float[] scores = new float[n];
        byte[] kinds = new byte[n];
        int fits = 0;
        for (int i = 0; i < n; i++) {
            fits += set(outcomes[i], i, scores, kinds);
        }
        return new RankState(source, names, outcomes, scores, kinds, fits, mark);
    }

    /** The outcomes by position (the verdict cache's last call). */
    VerdictCache.Outcome[] outcomes() {
        return outcomes;
    }

    /**
     * This state brought up to {@code now} (a mark of {@code views} taken before this call read anything) for a call
     * that lists {@code names}; null when it cannot be: other names, a log that does not reach back to this state's
     * mark, another source, repeated names, or so many changes that a full walk costs no more.
     */
    RankState advance(List<String> requested, long now, ViewSource views, Rescore rescore) {
        int n = names.size();
        if (views != source || !names.sameAs(requested)) {
            return null;
        }
        if (now == mark) {
            return this;
        }
        Set<String> changed = new HashSet<>();
        if (!views.changedSince(mark, changed::add) || changed.size() > n / 4) {
            return null;
        }
        Map<String, Integer> at = names.positions();
        if (at == null) {
            return null;
        }
        VerdictCache.Outcome[] nextOutcomes = outcomes.clone();
        float[] nextScores = scores.clone();
        byte[] nextKinds = kinds.clone();
        int fits = fitCount;
        for (String node : changed) {
            Integer p = at.get(node);
            if (p != null) {
                String name = names.name(p);
                VerdictCache.Outcome o = rescore.outcome(p, name, views.node(name));
                nextOutcomes[p] = o;
                fits += set(o, p, nextScores, nextKinds) - (kinds[p] == FIT ? 1 : 0);
            }
        }
        return new RankState(source, names, nextOutcomes, nextScores, nextKinds, fits, now);
    }

    /** The call's answer: the fitting nodes ranked for {@code nodePolicy}, the others with why, in request order. */
    FilterDecision decision(String nodePolicy) {
        Map<String, NodeRejection> failed = new LinkedHashMap<>();
        int[] fitAt = new int[fitCount];
        int k = 0;
        for (int p = 0; p < kinds.length; p++) {
            if (kinds[p] == FIT) {
                fitAt[k++] = p;
            } else {
                failed.put(names.name(p), kinds[p] == UNREGISTERED ? NodeReason.NODE_UNREGISTERED
                        : outcomes[p].rejection());
            }
        }
        if (k == 0) {
            return new FilterDecision.NoFit(failed);
        }
        return new FilterDecision.Fits(Ranking.bestFirst(new ByPosition(outcomes), fitAt, scores, nodePolicy),
                failed);
    }

    /** Records {@code o} at {@code p}; 1 when it is a fit. */
    private static int set(VerdictCache.Outcome o, int p, float[] scores, byte[] kinds) {
        if (o == null) {
            kinds[p] = UNREGISTERED;
            return 0;
        }
        if (o.fit() == null) {
            kinds[p] = REJECTED;
            return 0;
        }
        kinds[p] = FIT;
        scores[p] = o.fit().score();
        return 1;
    }

    /** The candidates by request position (a fit's; read only at fitting positions). */
    private static final class ByPosition extends AbstractList<Candidate> implements RandomAccess {
        private final VerdictCache.Outcome[] outcomes;

        ByPosition(VerdictCache.Outcome[] outcomes) {
            this.outcomes = outcomes;
        }

        @Override
        public Candidate get(int index) {
            return outcomes[index].fit();
        }

        @Override
        public int size() {
            return outcomes.length;
        }
    }
}
