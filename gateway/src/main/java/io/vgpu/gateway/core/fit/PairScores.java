package io.vgpu.gateway.core.fit;

import java.util.HashMap;
import java.util.Map;

/**
 * A node's pairwise GPU link scores ({@code hami.io/node-nvidia-score}, spec §6.1): {@code score(a, b)} is
 * the value device {@code a} reports for its link to device {@code b}. The matrix need not be symmetric;
 * missing pairs count 0. Used only by the topology-aware policy. Immutable.
 *
 * @param scores per device UUID, its scores towards other device UUIDs
 */
public record PairScores(Map<String, Map<String, Integer>> scores) {

    /** A node that publishes no scores. */
    public static final PairScores NONE = new PairScores(Map.of());

    /** Deep, null-free copy. */
    public PairScores {
        Map<String, Map<String, Integer>> copy = new HashMap<>();
        if (scores != null) {
            scores.forEach((from, row) -> {
                if (from != null && row != null) {
                    Map<String, Integer> r = new HashMap<>();
                    row.forEach((to, v) -> {
                        if (to != null && v != null) {
                            r.put(to, v);
                        }
                    });
                    copy.put(from, Map.copyOf(r));
                }
            });
        }
        scores = Map.copyOf(copy);
    }

    /** The score device {@code from} reports towards device {@code to}; 0 when absent. */
    public long score(String from, String to) {
        Map<String, Integer> row = scores.get(from);
        if (row == null) {
            return 0;
        }
        Integer v = row.get(to);
        return v == null ? 0 : v;
    }
}
