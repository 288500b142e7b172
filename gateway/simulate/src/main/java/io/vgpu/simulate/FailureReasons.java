package io.vgpu.simulate;

import java.util.Map;
import java.util.TreeMap;

/**
 * Condenses a {@code FailedNodes} map into the one reason word that rejected the most nodes, the way
 * HAMi's {@code FilteringFailed} events count nodes per reason (spec §14): each node reason is
 * {@code "<cnt>/<total> <Word>"} pieces joined by {@code ", "}, or a node-level word.
 */
final class FailureReasons {

    private FailureReasons() {
    }

    static String dominant(Map<String, String> failedNodes) {
        Map<String, Integer> nodesPerWord = new TreeMap<>();
        for (String reason : failedNodes.values()) {
            for (String piece : reason.split(", ")) {
                int space = piece.indexOf(' ');
                boolean counted = space > 0 && piece.substring(0, space).contains("/");
                nodesPerWord.merge(counted ? piece.substring(space + 1) : piece, 1, Integer::sum);
            }
        }
        return nodesPerWord.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey)
                .orElse("no nodes");
    }
}
