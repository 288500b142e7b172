package io.vgpu.gateway.core.filter;

import io.vgpu.gateway.core.reason.NodeRejection;
import io.vgpu.state.model.NodeView;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-node outcomes of earlier filter calls, per {@link DemandShape}, so that a filter re-scores only the nodes whose
 * view changed since the last pod of the same shape (at 5,000 nodes, scoring is most of a filter's CPU).
 *
 * <p><b>Why a hit is correct:</b> a node's outcome is a pure function of the requested node name, the node's
 * {@link NodeView} and the pod's shape (the scorer reads nothing else when the quota gate is off, no clock, no
 * randomness). A {@code NodeView} is immutable and a changed node gets a new view object (the store derives one
 * per entry event), so an entry answers only when the view handed in is the very object it was computed from
 * (identity, not equality: equality would cost a walk over every device, and identity can only miss, never lie).
 * Entries are never invalidated; a stale one simply stops matching and is overwritten on the next miss. Concurrent
 * callers may overwrite each other's entries with older or newer pairs; each entry is a consistent pair, so a
 * lookup still answers only for its own view.
 *
 * <p><b>Bounds:</b> at most {@code maxShapes} shapes (least recently used evicted first) and at most
 * {@code maxNodesPerShape} nodes per shape (past it the shape's entries are dropped: a cluster that keeps replacing
 * nodes under new names cannot grow it without bound). Each entry holds its view, so a node changed since a shape's
 * last use keeps one outdated view alive until that shape scores it again. Thread-safe.
 */
final class VerdictCache {

    /** Shapes kept by default: a workload's distinct GPU requests (count × memory × cores × selectors). */
    static final int DEFAULT_SHAPES = 8;
    /** Nodes per shape kept by default: above the largest clusters the filter is sized for (10,000 nodes). */
    static final int DEFAULT_NODES_PER_SHAPE = 20_000;

    private final int maxNodesPerShape;
    private final Map<DemandShape, Verdicts> shapes;
    /** The names of the last call that made an index: shared by the shapes' {@link RankState}s. */
    private volatile NameIndex lastNames;

    /**
     * @param maxShapes        shapes kept (≥ 1)
     * @param maxNodesPerShape nodes kept per shape (≥ 1)
     */
    VerdictCache(int maxShapes, int maxNodesPerShape) {
        if (maxShapes < 1 || maxNodesPerShape < 1) {
            throw new IllegalArgumentException("cache bounds must be positive: " + maxShapes + ", " + maxNodesPerShape);
        }
        this.maxNodesPerShape = maxNodesPerShape;
        this.shapes = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<DemandShape, Verdicts> eldest) {
                return size() > maxShapes;
            }
        };
    }

    /** The outcomes kept for {@code shape}, created empty (evicting the least recently used shape) if needed. */
    Verdicts forShape(DemandShape shape) {
        // once per filter call, not per node: a lock is cheaper than anything cleverer here
        synchronized (shapes) {
            return shapes.computeIfAbsent(shape, s -> new Verdicts(maxNodesPerShape));
        }
    }

    /**
     * The index of {@code requested}: the one made last when it lists the very same names (every shape's call lists
     * kube-scheduler's same nodes), else a new one, kept as the last.
     */
    NameIndex index(List<String> requested) {
        NameIndex last = lastNames;
        NameIndex index = NameIndex.of(requested, last);
        if (index != last) {
            lastNames = index;
        }
        return index;
    }

    /** Number of shapes kept (tests). */
    int shapeCount() {
        synchronized (shapes) {
            return shapes.size();
        }
    }

    /**
     * What scoring one pod shape on one node gave: exactly one of {@code fit} and {@code rejection} is non-null.
     *
     * @param node      the node name it was requested as (a fit names it, and so may a rejection's text)
     * @param view      the node view it was computed from (compared by identity)
     * @param fit       the candidate when the pod fits
     * @param rejection why it does not
     */
    record Outcome(String node, NodeView view, Candidate fit, NodeRejection rejection) {

        /** Whether this is the outcome of requesting {@code node} with {@code view}: that name, that very view. */
        boolean answers(String node, NodeView view) {
            // the names are nearly always one object (RepeatedNames): equals returns at its identity check
            return this.view == view && this.node.equals(node);
        }
    }

    /**
     * The outcomes of one shape, by requested node name, and by position in the request of the shape's last call
     * (kube-scheduler lists the same nodes in the same order call after call, so the outcome at a node's position is
     * nearly always its own: one array read instead of a hash lookup of a freshly decoded name). A position's outcome
     * is used only when it {@link Outcome#answers answers} the name and view requested there now; else the
     * by-name map is asked. Concurrent calls of a shape each remember their own whole call; the last one stays.
     */
    static final class Verdicts {
        private static final Outcome[] NO_CALL = new Outcome[0];

        private final Map<String, Outcome> byNode = new ConcurrentHashMap<>();
        private final int maxNodes;
        /** The outcome of each position of the last call remembered (null: a node without a view). */
        private volatile Outcome[] lastCall = NO_CALL;
        /** The last call whole, to be brought up to date by the next call of the same names; null: none. */
        private volatile RankState lastRank;

        private Verdicts(int maxNodes) {
            this.maxNodes = maxNodes;
        }

        /** The outcome computed for {@code node} from this very {@code view}, or null. */
        Outcome get(String node, NodeView view) {
            Outcome o = byNode.get(node);
            return o != null && o.view() == view ? o : null;
        }

        /**
         * The outcome computed for {@code node} from this very {@code view}, or null: the one at {@code position} of
         * {@code lastCall} (read once per call from {@link #lastCall()}) when it answers them, else the one kept for
         * the name.
         */
        Outcome get(Outcome[] lastCall, int position, String node, NodeView view) {
            Outcome o = position < lastCall.length ? lastCall[position] : null;
            return o != null && o.answers(node, view) ? o : get(node, view);
        }

        /** The outcomes of the last call remembered, by position in its request. */
        Outcome[] lastCall() {
            return lastCall;
        }

        /**
         * Remembers one call's outcomes by position (the array is not copied: the caller hands it over). A request
         * longer than the shape's node bound is not remembered: the bound holds for positions as for names.
         */
        void rememberCall(Outcome[] outcomes) {
            lastCall = outcomes.length <= maxNodes ? outcomes : NO_CALL;
        }

        /** The last call kept whole ({@link RankState}), or null. */
        RankState lastRank() {
            return lastRank;
        }

        /**
         * Keeps one call whole (null: forgets the one kept), and its outcomes as the last call by position. A
         * request longer than the shape's node bound is not kept.
         */
        void rememberRank(RankState rank) {
            lastRank = rank != null && rank.outcomes().length <= maxNodes ? rank : null;
            if (lastRank != null) {
                lastCall = rank.outcomes();
            }
        }

        /** Keeps {@code outcome} for {@code node}, replacing what was kept for it. */
        void put(String node, Outcome outcome) {
            if (byNode.size() >= maxNodes && !byNode.containsKey(node)) {
                byNode.clear();
            }
            byNode.put(node, outcome);
        }

        /** Number of nodes kept (tests). */
        int size() {
            return byNode.size();
        }
    }
}
