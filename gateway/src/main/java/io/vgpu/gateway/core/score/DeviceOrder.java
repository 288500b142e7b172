package io.vgpu.gateway.core.score;

import io.vgpu.gateway.core.fit.GoText;
import io.vgpu.state.model.DeviceUsage;

import java.util.ArrayList;
import java.util.List;

/**
 * The order HAMi sorts a node's devices in before Fit (spec §10.2; ascending, Fit consumes from the end),
 * for a GPU policy string P and the pod's numa-bind flag:
 * <pre>
 *   P contains "," or P == "numa"  →  chain: the binpack/spread/numa tokens of P in written order, deduplicated
 *                                     (others dropped; none → [spread]; numaBind → numa moved first);
 *                                     binpack: lower score first, spread: higher score first, numa: lower NUMA
 *                                     first; all equal → lower index first
 *   P == "mutex"                   →  more used first, then lower NUMA first (idle cards end up last)
 *   numaBind                       →  binpack: same NUMA ? lower score first : higher NUMA first
 *                                     other:   same NUMA ? higher score first : lower NUMA first
 *   otherwise                      →  binpack: lower score first, else lower NUMA; other: higher score first, else lower NUMA
 * </pre>
 * Scores compare as float32 ({@code <}, {@code !=}). {@link #sort} is Go's {@code sort.Sort}: insertion
 * sort (stable) up to 12 devices, pattern-defeating quicksort above. Immutable and thread-safe.
 */
public final class DeviceOrder {

    /** GPU policy word. */
    static final String BINPACK = "binpack";
    /** GPU policy word (HAMi's default). */
    static final String SPREAD = "spread";
    /** GPU policy word: NUMA as a sort key. */
    public static final String NUMA = "numa";
    /** GPU policy word. */
    public static final String MUTEX = "mutex";

    private static final int KEY_BINPACK = 0;
    private static final int KEY_SPREAD = 1;
    private static final int KEY_NUMA = 2;

    private final int[] chain;
    private final boolean mutex;
    private final boolean numaBind;
    private final boolean binpack;

    /**
     * @param policy   the resolved GPU policy string
     * @param numaBind whether the pod asks for numa-bind
     */
    public DeviceOrder(String policy, boolean numaBind) {
        String p = policy == null ? "" : policy;
        this.numaBind = numaBind;
        this.chain = p.contains(",") || p.equals(NUMA) ? chainOf(p, numaBind) : null;
        this.mutex = p.equals(MUTEX);
        this.binpack = p.equals(BINPACK);
    }

    /** Whether a device with these keys sorts before a device with those (HAMi's {@code Less}). */
    public boolean less(float scoreA, int numaA, int usedA, int indexA, float scoreB, int numaB, int usedB,
                        int indexB) {
        if (chain != null) {
            return lessByChain(scoreA, numaA, indexA, scoreB, numaB, indexB);
        }
        if (mutex) {
            if (usedA != usedB) {
                return usedA > usedB;
            }
            return numaA < numaB;
        }
        if (numaBind) {
            if (binpack) {
                return numaA == numaB ? scoreA < scoreB : numaA > numaB;
            }
            return numaA == numaB ? scoreA > scoreB : numaA < numaB;
        }
        if (binpack) {
            return scoreA != scoreB ? scoreA < scoreB : numaA < numaB;
        }
        return scoreA != scoreB ? scoreA > scoreB : numaA < numaB;
    }

    /**
     * Sorts {@code devices[0..n)} and their {@code scores} in place with Go's {@code sort.Sort}.
     *
     * @param devices the devices, in their current order (which decides the placement of equal ones)
     * @param scores  each device's score, kept aligned with {@code devices}
     * @param n       how many leading entries to sort
     */
    public void sort(DeviceUsage[] devices, float[] scores, int n) {
        GoSort.sort(new GoSort.Data() {
            @Override
            public boolean less(int i, int j) {
                DeviceUsage a = devices[i];
                DeviceUsage b = devices[j];
                return DeviceOrder.this.less(scores[i], a.numa(), a.used(), a.index(), scores[j], b.numa(), b.used(),
                        b.index());
            }

            @Override
            public void swap(int i, int j) {
                DeviceUsage d = devices[i];
                devices[i] = devices[j];
                devices[j] = d;
                float s = scores[i];
                scores[i] = scores[j];
                scores[j] = s;
            }
        }, n);
    }

    private boolean lessByChain(float scoreA, int numaA, int indexA, float scoreB, int numaB, int indexB) {
        for (int key : chain) {
            switch (key) {
                case KEY_BINPACK -> {
                    if (scoreA != scoreB) {
                        return scoreA < scoreB;
                    }
                }
                case KEY_SPREAD -> {
                    if (scoreA != scoreB) {
                        return scoreA > scoreB;
                    }
                }
                default -> {
                    if (numaA != numaB) {
                        return numaA < numaB;
                    }
                }
            }
        }
        // Go compares the unsigned device index; registered indexes are never negative
        return Integer.compareUnsigned(indexA, indexB) < 0;
    }

    /** HAMi's {@code gpuSortKeyChain} plus the numa-bind adjustment of {@code lessByChain}. */
    private static int[] chainOf(String policy, boolean numaBind) {
        List<Integer> keys = new ArrayList<>(3);
        for (String token : policy.split(",", -1)) {
            int key = switch (GoText.trimSpace(token)) {
                case BINPACK -> KEY_BINPACK;
                case SPREAD -> KEY_SPREAD;
                case NUMA -> KEY_NUMA;
                default -> -1;
            };
            if (key >= 0 && !keys.contains(key)) {
                keys.add(key);
            }
        }
        if (keys.isEmpty()) {
            keys.add(KEY_SPREAD);
        }
        if (numaBind && keys.get(0) != KEY_NUMA) {
            keys.remove(Integer.valueOf(KEY_NUMA));
            keys.add(0, KEY_NUMA);
        }
        return keys.stream().mapToInt(Integer::intValue).toArray();
    }
}
