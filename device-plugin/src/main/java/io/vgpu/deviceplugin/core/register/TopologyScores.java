package io.vgpu.deviceplugin.core.register;

import io.vgpu.deviceplugin.core.gpu.GpuTopology;
import io.vgpu.state.codec.NodeRegisterCodec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * HAMi's GPU pair scores ({@code hami.io/node-nvidia-score}, spec §3.2 step 3, HAMi
 * {@code calculateGPUPairScore}): for every ordered pair of GPUs the links between them are collected,
 * the P2P link from their common ancestor (cross-CPU 10, same CPU 20, host bridge 30, several
 * switches 40, one switch 50, same board 60) and the NVLink link (100 per link, up to 18): direct links
 * count GPU {@code i}'s active links whose remote end is GPU {@code j}'s bus id; when there are none and
 * {@code i} has NVLinks with a reported remote end, both GPUs' NVSwitch links count, the smaller number
 * wins. The pair's score is the sum over its links, or 0 (and the pair is reported asymmetric) when
 * {@code i} sees a different number of links towards {@code j} than {@code j} towards {@code i}. Pure.
 */
public final class TopologyScores {

    private static final int MAX_NVLINKS = 18;

    private TopologyScores() {
    }

    /**
     * @param gpus      the GPUs, in the order the annotation lists them
     * @param ancestors {@code ancestors.get(i).get(j)} = NVML's common-ancestor level of GPU i and GPU j
     * @return the scores
     * @throws IllegalArgumentException for a common-ancestor level NVML does not define (HAMi's error)
     */
    public static Result compute(List<GpuTopology> gpus, List<List<Integer>> ancestors) {
        int n = gpus.size();
        int[][] linkCount = new int[n][n];
        int[][] sum = new int[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (i == j) {
                    continue;
                }
                int p2p = p2pScore(ancestors.get(i).get(j));
                int nvlinks = nvlinks(gpus.get(i), gpus.get(j));
                linkCount[i][j] = (p2p > 0 ? 1 : 0) + (nvlinks > 0 ? 1 : 0);
                sum[i][j] = p2p + 100 * nvlinks;
            }
        }
        Map<String, Map<String, Integer>> scores = new LinkedHashMap<>();
        List<String> asymmetric = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Map<String, Integer> row = new LinkedHashMap<>();
            for (int j = 0; j < n; j++) {
                if (i == j) {
                    continue;
                }
                boolean symmetric = linkCount[i][j] == linkCount[j][i];
                if (!symmetric && i < j) {
                    asymmetric.add(gpus.get(i).uuid() + "/" + gpus.get(j).uuid());
                }
                row.put(gpus.get(j).uuid(), symmetric ? sum[i][j] : 0);
            }
            scores.put(gpus.get(i).uuid(), row);
        }
        return new Result(scores, asymmetric);
    }

    /** HAMi {@code GetP2PLink}: the P2P link type's score from a common-ancestor level. */
    static int p2pScore(int level) {
        return switch (level) {
            case 0 -> 60;   // same board
            case 10 -> 50;  // one PCIe switch
            case 20 -> 40;  // several PCIe switches
            case 30 -> 30;  // host bridge
            case 40 -> 20;  // same CPU (NUMA node)
            case 50 -> 10;  // across CPUs
            default -> throw new IllegalArgumentException("unknown topology level: " + level);
        };
    }

    /** HAMi {@code GetNVLink}: the number of NVLinks between two GPUs (0 = no NVLink link). */
    static int nvlinks(GpuTopology from, GpuTopology to) {
        String target = pciKey(to.busId());
        List<GpuTopology.Link> reported = from.links().stream().filter(l -> !l.remoteBusId().isEmpty()).toList();
        long direct = reported.stream().filter(l -> pciKey(l.remoteBusId()).equals(target)).count();
        if (direct >= 1 && direct <= MAX_NVLINKS) {
            return (int) direct;
        }
        if (reported.isEmpty()) {
            return 0;
        }
        long fromSwitch = switchLinks(from);
        long toSwitch = switchLinks(to);
        long via = Math.min(fromSwitch, toSwitch);
        return fromSwitch > 0 && toSwitch > 0 && via <= MAX_NVLINKS ? (int) via : 0;
    }

    private static long switchLinks(GpuTopology gpu) {
        return gpu.links().stream().filter(l -> l.remoteType() == GpuTopology.REMOTE_SWITCH).count();
    }

    /**
     * A PCI bus id in one spelling, as HAMi's {@code PciInfo.BusID} compares them: lower case, the
     * 8-digit NVML domain shortened to sysfs's 4 digits ({@code 00000000:3B:00.0} = {@code 0000:3b:00.0}).
     */
    static String pciKey(String busId) {
        String id = busId.toLowerCase(Locale.ROOT);
        return id.length() > 4 && id.startsWith("0000") && id.indexOf(':') == 8 ? id.substring(4) : id;
    }

    /**
     * The scores of one node.
     *
     * @param scores     per GPU, the score towards every other GPU, in the computed order
     * @param asymmetric pairs {@code uuid/uuid} whose link data differed by direction (scored 0)
     */
    public record Result(Map<String, Map<String, Integer>> scores, List<String> asymmetric) {

        /** Copies. */
        public Result {
            scores = Map.copyOf(Objects.requireNonNull(scores, "scores"));
            asymmetric = List.copyOf(asymmetric);
        }

        /**
         * The annotation value for the registered GPUs, in their order (HAMi scores the registered
         * devices only); scores towards GPUs that are not registered are left out.
         */
        public String annotation(List<String> registered) {
            Map<String, Map<String, Integer>> out = new LinkedHashMap<>();
            for (String uuid : registered) {
                Map<String, Integer> row = scores.get(uuid);
                if (row == null) {
                    continue;
                }
                Map<String, Integer> kept = new LinkedHashMap<>();
                row.forEach((other, score) -> {
                    if (registered.contains(other)) {
                        kept.put(other, score);
                    }
                });
                out.put(uuid, kept);
            }
            return NodeRegisterCodec.encodePairScores(out);
        }
    }
}
