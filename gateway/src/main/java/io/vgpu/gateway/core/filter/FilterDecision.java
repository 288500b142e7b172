package io.vgpu.gateway.core.filter;

import io.vgpu.gateway.core.reason.NodeRejection;

import java.util.List;
import java.util.Map;

/**
 * Outcome of the {@code /filter} decision (spec §9.2) before any reservation is attempted.
 */
public sealed interface FilterDecision {

    /** The pod asks for no HAMi resource: answer with the request's node names unchanged. */
    record PassThrough() implements FilterDecision {
    }

    /**
     * The whole call fails (e.g. an invalid {@code hami.io/device-scoring-weights} annotation).
     *
     * @param message the text for the extender's {@code Error}
     */
    record Failed(String message) implements FilterDecision {
    }

    /**
     * No node fits.
     *
     * @param rejected every requested node and why it was rejected
     */
    record NoFit(Map<String, NodeRejection> rejected) implements FilterDecision {

        /** Copies the map. */
        public NoFit {
            rejected = Map.copyOf(rejected);
        }
    }

    /**
     * Nodes fit. {@code ranked} is ordered best first: element 0 is the node HAMi would answer; the
     * caller reserves it and, if the shared state refuses (a lost race), tries the next ones.
     *
     * @param ranked   fitting nodes, best first
     * @param rejected the nodes that did not fit and why
     */
    record Fits(List<Candidate> ranked, Map<String, NodeRejection> rejected) implements FilterDecision {

        /** Copies (a ranking is immutable already: copying would sort it whole); at least one candidate. */
        public Fits {
            ranked = ranked instanceof Ranking.Ranked ? ranked : List.copyOf(ranked);
            rejected = Map.copyOf(rejected);
            if (ranked.isEmpty()) {
                throw new IllegalArgumentException("Fits needs at least one candidate");
            }
        }

        /** The node HAMi would answer. */
        public Candidate best() {
            return ranked.get(0);
        }
    }
}
