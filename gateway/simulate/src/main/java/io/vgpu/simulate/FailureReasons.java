package io.vgpu.simulate;

import io.vgpu.gateway.core.reason.DeviceRejection;
import io.vgpu.gateway.core.reason.NodeRejection;
import io.vgpu.state.model.FitReason;

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

    /** From the wire: {@code FailedNodes} texts ({@code --mode http}). */
    static String dominant(Map<String, String> failedNodes) {
        Map<String, Integer> nodesPerWord = new TreeMap<>();
        for (String reason : failedNodes.values()) {
            countPieces(reason, nodesPerWord);
        }
        return mostNodes(nodesPerWord);
    }

    /** From the core's decision: device reasons by name, other rejections by their text ({@code --mode core}). */
    static String dominantOf(Map<String, NodeRejection> rejected) {
        Map<String, Integer> nodesPerWord = new TreeMap<>();
        for (NodeRejection rejection : rejected.values()) {
            if (rejection instanceof DeviceRejection devices) {
                for (FitReason word : devices.reasons()) {
                    nodesPerWord.merge(word.name(), 1, Integer::sum);
                }
            } else {
                countPieces(rejection.hamiText(), nodesPerWord);
            }
        }
        return mostNodes(nodesPerWord);
    }

    private static void countPieces(String reason, Map<String, Integer> nodesPerWord) {
        for (String piece : reason.split(", ")) {
            int space = piece.indexOf(' ');
            boolean counted = space > 0 && piece.substring(0, space).contains("/");
            nodesPerWord.merge(counted ? piece.substring(space + 1) : piece, 1, Integer::sum);
        }
    }

    private static String mostNodes(Map<String, Integer> nodesPerWord) {
        return nodesPerWord.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey)
                .orElse("no nodes");
    }
}
