package io.vgpu.gateway.core.fit;

import io.vgpu.state.model.ContainerDevice;

import java.util.ArrayList;
import java.util.List;

/**
 * The topology-aware choice among more fitting devices than requested (spec §9.4, after the walk):
 * <ul>
 *   <li>one device wanted: the candidate with the <b>lowest</b> sum of scores towards every other candidate
 *       of a different UUID (HAMi's {@code computeWorstSingleCard}: leave the well-connected cards for
 *       multi-GPU pods); ties keep the first in candidate order;</li>
 *   <li>n &gt; 1 wanted: among all n-subsets in lexicographic index order, the one with the <b>highest</b>
 *       sum over its pairs (i &lt; j) of {@code score(candidate_i, candidate_j)} ({@code computeBestCombination});
 *       ties keep the first subset.</li>
 * </ul>
 * Missing scores count 0; sums are 64-bit like Go's {@code int}.
 */
final class TopologySelection {

    private TopologySelection() {
    }

    /**
     * @param candidates every device that fitted, in walk order (more than {@code wanted})
     * @param wanted     how many devices the request asks for (≥ 1)
     * @param scores     the node's pair scores
     * @return the chosen devices, in candidate order
     */
    static List<ContainerDevice> choose(List<ContainerDevice> candidates, int wanted, PairScores scores) {
        int m = candidates.size();
        long[][] pair = new long[m][m];
        for (int a = 0; a < m; a++) {
            for (int b = 0; b < m; b++) {
                pair[a][b] = scores.score(candidates.get(a).uuid(), candidates.get(b).uuid());
            }
        }
        return wanted == 1 ? List.of(candidates.get(worstSingle(candidates, pair)))
                : bestCombination(candidates, wanted, pair);
    }

    private static int worstSingle(List<ContainerDevice> candidates, long[][] pair) {
        int worst = -1;
        long worstScore = 0;
        for (int a = 0; a < candidates.size(); a++) {
            long total = 0;
            for (int b = 0; b < candidates.size(); b++) {
                if (!candidates.get(a).uuid().equals(candidates.get(b).uuid())) {
                    total += pair[a][b];
                }
            }
            if (worst < 0 || total < worstScore) {
                worst = a;
                worstScore = total;
            }
        }
        return worst;
    }

    /** Enumerates index combinations in the order of HAMi's recursive {@code generateCombinations}. */
    private static List<ContainerDevice> bestCombination(List<ContainerDevice> candidates, int wanted,
                                                         long[][] pair) {
        int m = candidates.size();
        int[] combo = new int[wanted];
        for (int i = 0; i < wanted; i++) {
            combo[i] = i;
        }
        int[] best = null;
        long bestScore = 0;
        while (true) {
            long total = 0;
            for (int i = 0; i < wanted - 1; i++) {
                for (int z = i + 1; z < wanted; z++) {
                    total += pair[combo[i]][combo[z]];
                }
            }
            if (best == null || total > bestScore) {
                best = combo.clone();
                bestScore = total;
            }
            int pos = wanted - 1;
            while (pos >= 0 && combo[pos] == m - wanted + pos) {
                pos--;
            }
            if (pos < 0) {
                break;
            }
            combo[pos]++;
            for (int i = pos + 1; i < wanted; i++) {
                combo[i] = combo[i - 1] + 1;
            }
        }
        List<ContainerDevice> out = new ArrayList<>(wanted);
        for (int index : best) {
            out.add(candidates.get(index));
        }
        return out;
    }
}
