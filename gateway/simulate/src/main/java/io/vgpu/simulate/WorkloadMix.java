package io.vgpu.simulate;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * Relative weights of the kinds of GPU pods the simulation generates, parsed from
 * {@code whole=25,mem=30,pct=15,cores=10,multi=10,type=5,uuid=5} (missing kinds weigh 0).
 *
 * @param weights weight per kind
 */
public record WorkloadMix(Map<Kind, Integer> weights) {

    /** The kinds of request a pod can make. */
    public enum Kind {
        /** {@code nvidia.com/gpu: 1}: a whole card (the webhook adds cores 100). */
        WHOLE,
        /** One GPU with a memory slice ({@code gpumem}). */
        MEM,
        /** One GPU with a memory percentage ({@code gpumem-percentage}). */
        PCT,
        /** One GPU with memory and an SM share ({@code gpucores}). */
        CORES,
        /** Several GPUs with a memory slice each. */
        MULTI,
        /** A memory slice on a chosen GPU type ({@code nvidia.com/use-gputype}). */
        TYPE,
        /** A memory slice on one chosen GPU UUID ({@code nvidia.com/use-gpuuuid}). */
        UUID
    }

    /** The default mix. */
    public static final String DEFAULT = "whole=20,mem=35,pct=15,cores=10,multi=10,type=5,uuid=5";

    /** Copies the map and rejects a mix without any positive weight. */
    public WorkloadMix {
        weights = Map.copyOf(weights);
        if (weights.values().stream().mapToInt(Integer::intValue).sum() <= 0) {
            throw new IllegalArgumentException("the workload mix needs at least one positive weight");
        }
    }

    /** Parses {@code kind=weight,...}; unknown kinds and negative weights are errors. */
    public static WorkloadMix parse(String text) {
        Map<Kind, Integer> w = new EnumMap<>(Kind.class);
        for (String part : text.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            String[] kv = part.split("=", 2);
            if (kv.length != 2) {
                throw new IllegalArgumentException("mix entry '" + part + "' is not kind=weight");
            }
            Kind kind;
            try {
                kind = Kind.valueOf(kv[0].trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown mix kind '" + kv[0].trim() + "'; known: whole, mem, pct, "
                        + "cores, multi, type, uuid", e);
            }
            int weight;
            try {
                weight = Integer.parseInt(kv[1].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("mix weight '" + kv[1].trim() + "' is not an integer", e);
            }
            if (weight < 0) {
                throw new IllegalArgumentException("mix weight of " + kind + " must not be negative");
            }
            w.put(kind, weight);
        }
        return new WorkloadMix(w);
    }

    /** Picks a kind for a uniform draw {@code r} in [0, total weight). */
    Kind pick(int r) {
        int acc = 0;
        for (Kind k : Kind.values()) {
            acc += weights.getOrDefault(k, 0);
            if (r < acc) {
                return k;
            }
        }
        throw new IllegalArgumentException("draw " + r + " outside the mix");
    }

    /** Sum of all weights. */
    int total() {
        return weights.values().stream().mapToInt(Integer::intValue).sum();
    }
}
