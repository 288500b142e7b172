package io.vgpu.gateway.core.filter;

import io.vgpu.gateway.core.reason.NodeRejection;
import io.vgpu.state.model.NodeView;

import java.util.LinkedHashMap;
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

    /** Number of shapes kept (tests). */
    int shapeCount() {
        synchronized (shapes) {
            return shapes.size();
        }
    }

    /**
     * What scoring one pod shape on one node gave: exactly one of {@code fit} and {@code rejection} is non-null.
     *
     * @param view      the node view it was computed from (compared by identity)
     * @param fit       the candidate when the pod fits
     * @param rejection why it does not
     */
    record Outcome(NodeView view, Candidate fit, NodeRejection rejection) {
    }

    /** The outcomes of one shape, by requested node name. */
    static final class Verdicts {
        private final Map<String, Outcome> byNode = new ConcurrentHashMap<>();
        private final int maxNodes;

        private Verdicts(int maxNodes) {
            this.maxNodes = maxNodes;
        }

        /** The outcome computed for {@code node} from this very {@code view}, or null. */
        Outcome get(String node, NodeView view) {
            Outcome o = byNode.get(node);
            return o != null && o.view() == view ? o : null;
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
