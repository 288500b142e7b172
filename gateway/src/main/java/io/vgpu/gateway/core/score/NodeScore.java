package io.vgpu.gateway.core.score;

import io.vgpu.state.model.DeviceUsage;

import java.util.ArrayList;
import java.util.List;

/**
 * Node score and node choice (spec §10.3).
 * <pre>
 *   default score = 10 · (Σused/Σcount + Σusedcores/Σtotalcore + Σusedmem/Σtotalmem)   float32, int32 sums;
 *                   0 when any total is 0; computed from usage BEFORE the pod being scheduled
 *   comparator    = node policy "spread" → higher score first; anything else → lower score first
 *   chosen node   = the LAST after sorting (binpack: fullest node; spread: emptiest)
 * </pre>
 * HAMi breaks ties arbitrarily (nodes are collected by concurrent goroutines and sorted unstably); {@link #choose}
 * is deterministic and reports the tie so callers can tell. Pure.
 */
public final class NodeScore {

    /** Node policy word; anything else behaves as binpack. */
    static final String SPREAD = "spread";

    private NodeScore() {
    }

    /** HAMi's {@code ComputeDefaultScore} over all devices of a node. */
    public static float defaultScore(List<DeviceUsage> devices) {
        int used = 0;
        int usedCores = 0;
        int usedMem = 0;
        int total = 0;
        int totalCore = 0;
        int totalMem = 0;
        for (DeviceUsage d : devices) {
            used += d.used();
            usedCores += d.usedcores();
            usedMem += d.usedmem();
            total += d.count();
            totalCore += d.totalcore();
            totalMem += d.totalmem();
        }
        if (total == 0 || totalCore == 0 || totalMem == 0) {
            return 0f;
        }
        float useScore = (float) used / (float) total;
        float coreScore = (float) usedCores / (float) totalCore;
        float memScore = (float) usedMem / (float) totalMem;
        return DeviceScore.WEIGHT * (useScore + coreScore + memScore);
    }

    /** HAMi's {@code NodeScoreList.Less}: does a node scoring {@code a} sort before one scoring {@code b}? */
    public static boolean less(String nodePolicy, float a, float b) {
        return SPREAD.equals(nodePolicy) ? a > b : a < b;
    }

    /**
     * A scored node.
     *
     * @param node  node name
     * @param score its node score
     */
    public record Scored(String node, float score) {
    }

    /**
     * The node HAMi returns.
     *
     * @param node  the chosen node (among tied best nodes, the first in input order)
     * @param score its score
     * @param tied  every node that scores the same as the chosen one, the chosen one included, in input order
     */
    public record Choice(String node, float score, List<String> tied) {

        /** Copies the tie list. */
        public Choice {
            tied = List.copyOf(tied);
        }

        /** True when HAMi's choice among several equally good nodes would be arbitrary. */
        public boolean isTie() {
            return tied.size() > 1;
        }
    }

    /**
     * Picks the node HAMi would return: the one that sorts last under {@link #less}.
     *
     * @param nodes      fitting nodes, non-empty
     * @param nodePolicy the node policy
     */
    public static Choice choose(List<Scored> nodes, String nodePolicy) {
        Scored best = nodes.get(0);
        for (Scored n : nodes) {
            if (less(nodePolicy, best.score(), n.score())) {
                best = n;
            }
        }
        List<String> tied = new ArrayList<>();
        for (Scored n : nodes) {
            if (!less(nodePolicy, n.score(), best.score()) && !less(nodePolicy, best.score(), n.score())) {
                tied.add(n.node());
            }
        }
        return new Choice(best.node(), best.score(), tied);
    }
}
