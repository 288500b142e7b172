package io.vgpu.gateway.core.fit;

import io.vgpu.state.codec.HamiAnnotations;

import java.util.Map;

/**
 * Per-pod weights of the three terms of the device score (spec §10.1), from the pod annotation
 * {@code hami.io/device-scoring-weights: slot=<int>,core=<int>,memory=<int>}. Weights are 64-bit like
 * HAMi's, non-negative, and at least one is positive.
 *
 * @param slot   weight of the slot (allocation count) ratio
 * @param core   weight of the SM ratio
 * @param memory weight of the memory ratio
 */
public record ScoringWeights(long slot, long core, long memory) {

    /** HAMi's equal weights, used when the annotation is absent. */
    public static final ScoringWeights DEFAULT = new ScoringWeights(1, 1, 1);

    /**
     * The outcome of parsing the annotation: exactly one of {@code weights} and {@code error} is non-null.
     *
     * @param weights the parsed weights
     * @param error   HAMi's exact error text, e.g.
     *                {@code invalid hami.io/device-scoring-weights annotation "x": expected slot, core, and memory weights}
     */
    public record Parsed(ScoringWeights weights, String error) {

        /** Returns true when the annotation was valid (or absent). */
        public boolean ok() {
            return error == null;
        }
    }

    /**
     * The weights a pod asks for: {@link #DEFAULT} when the annotation is absent, else
     * {@link #parse(String)} of its value (an empty value is present, hence invalid).
     */
    public static Parsed fromPod(Map<String, String> podAnnotations) {
        String value = podAnnotations == null ? null : podAnnotations.get(HamiAnnotations.DEVICE_SCORING_WEIGHTS);
        return value == null ? new Parsed(DEFAULT, null) : parse(value);
    }

    /**
     * Parses an annotation value exactly as HAMi's {@code ParseDeviceScoringWeights}: three comma-separated
     * {@code key=value} entries (keys and values trimmed), keys {@code slot}, {@code core}, {@code memory}
     * each once, base-10 64-bit non-negative integers, not all zero. Checks run in HAMi's order (entry
     * count, shape, duplicate, integer, sign, key name), so the first problem found is the one reported.
     * Never throws.
     *
     * @param value the annotation value; null means absent and yields {@link #DEFAULT}
     */
    public static Parsed parse(String value) {
        if (value == null) {
            return new Parsed(DEFAULT, null);
        }
        String[] parts = value.split(",", -1);
        if (parts.length != 3) {
            return invalid(value, "expected slot, core, and memory weights");
        }
        long slot = 0;
        long core = 0;
        long memory = 0;
        boolean[] seen = new boolean[3];
        for (String part : parts) {
            String[] keyValue = GoText.trimSpace(part).split("=", 2);
            if (keyValue.length != 2) {
                return invalid(value, "expected key=value entries");
            }
            String key = GoText.trimSpace(keyValue[0]);
            if (keyIndex(key) >= 0 && seen[keyIndex(key)]) {
                return invalid(value, "duplicate " + GoText.quote(key) + " weight");
            }
            Long weight = GoText.parseInt64(GoText.trimSpace(keyValue[1]));
            if (weight == null) {
                return invalid(value, GoText.quote(key) + " weight must be an integer");
            }
            if (weight < 0) {
                return invalid(value, GoText.quote(key) + " weight must not be negative");
            }
            switch (key) {
                case "slot" -> slot = weight;
                case "core" -> core = weight;
                case "memory" -> memory = weight;
                default -> {
                    return invalid(value, "unknown weight " + GoText.quote(key));
                }
            }
            seen[keyIndex(key)] = true;
        }
        if (slot == 0 && core == 0 && memory == 0) {
            return invalid(value, "at least one weight must be positive");
        }
        return new Parsed(new ScoringWeights(slot, core, memory), null);
    }

    /** Position of a known key in {@code seen}; -1 for unknown keys, which are rejected before they could repeat. */
    private static int keyIndex(String key) {
        return switch (key) {
            case "slot" -> 0;
            case "core" -> 1;
            case "memory" -> 2;
            default -> -1;
        };
    }

    private static Parsed invalid(String value, String problem) {
        return new Parsed(null, "invalid " + HamiAnnotations.DEVICE_SCORING_WEIGHTS + " annotation "
                + GoText.quote(value) + ": " + problem);
    }
}
