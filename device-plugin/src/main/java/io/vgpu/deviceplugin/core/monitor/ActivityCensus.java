package io.vgpu.deviceplugin.core.monitor;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pass 1 of HAMi's feedback loop (spec §4.6): for each GPU (keyed by the full 96-byte UUID, see
 * {@link UsageInfo#deviceKey}) how many recently active containers of each priority use it
 * (HAMi's {@code map[string]UtilizationPerDevice}). Priorities index from 0; lower is more
 * important. Immutable once built; the checks treat priorities beyond a GPU's counts as 0.
 */
public final class ActivityCensus {

    private final Map<String, int[]> active;

    private ActivityCensus(Map<String, int[]> active) {
        this.active = active;
    }

    /** A census from explicit counts: device key to active containers per priority (index = priority). */
    public static ActivityCensus of(Map<String, List<Integer>> counts) {
        Map<String, int[]> copy = new LinkedHashMap<>();
        counts.forEach((key, perPriority) -> copy.put(key, perPriority.stream().mapToInt(Integer::intValue).toArray()));
        return new ActivityCensus(copy);
    }

    static Builder builder() {
        return new Builder();
    }

    /**
     * HAMi's {@code CheckBlocking}: some device key of the container is in the census with an
     * active container of a numerically smaller (more important) priority than {@code priority}.
     * Always false for a negative priority. Every key is inspected, not only the first.
     */
    public boolean blocks(int priority, Iterable<String> deviceKeys) {
        for (String key : deviceKeys) {
            int[] counts = active.get(key);
            if (counts != null && moreImportantActive(counts, priority)) {
                return true;
            }
        }
        return false;
    }

    /**
     * HAMi's {@code CheckPriority}: {@link #blocks} or, on some device key in the census, at least
     * two active containers of the same {@code priority}. Always false for a negative priority.
     */
    public boolean contends(int priority, Iterable<String> deviceKeys) {
        for (String key : deviceKeys) {
            int[] counts = active.get(key);
            if (counts == null) {
                continue;
            }
            if (moreImportantActive(counts, priority)) {
                return true;
            }
            if (priority >= 0 && priority < counts.length && counts[priority] > 1) {
                return true;
            }
        }
        return false;
    }

    private static boolean moreImportantActive(int[] counts, int priority) {
        for (int j = 0; j < Math.min(priority, counts.length); j++) {
            if (counts[j] > 0) {
                return true;
            }
        }
        return false;
    }

    /** Active containers of {@code priority} on {@code deviceKey}; 0 when none were counted. */
    public int count(String deviceKey, int priority) {
        int[] counts = active.get(deviceKey);
        return counts == null || priority < 0 || priority >= counts.length ? 0 : counts[priority];
    }

    /** Whether no GPU had an active container. */
    public boolean isEmpty() {
        return active.isEmpty();
    }

    /** The counts, device key to per-priority list. */
    public Map<String, List<Integer>> asMap() {
        Map<String, List<Integer>> out = new LinkedHashMap<>();
        active.forEach((key, counts) -> out.put(key, Arrays.stream(counts).boxed().toList()));
        return out;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("{");
        active.forEach((key, counts) -> s.append(s.length() > 1 ? ", " : "")
                .append(key.replace("\0", "")).append('=').append(Arrays.toString(counts)));
        return s.append('}').toString();
    }

    /** Accumulates counts; HAMi's "grow the per-UUID array as needed". */
    static final class Builder {
        private final Map<String, int[]> active = new LinkedHashMap<>();

        void countActive(String deviceKey, int priority) {
            if (priority < 0) {
                throw new IllegalArgumentException("negative priorities are never counted");
            }
            int[] counts = active.getOrDefault(deviceKey, new int[0]);
            if (priority >= counts.length) {
                counts = Arrays.copyOf(counts, priority + 1);
            }
            counts[priority]++;
            active.put(deviceKey, counts);
        }

        ActivityCensus build() {
            return new ActivityCensus(new LinkedHashMap<>(active));
        }
    }
}
