package io.vgpu.simulate;

import io.vgpu.gateway.core.Container;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.state.codec.HamiAnnotations;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Generates a deterministic stream of GPU pods (as users would write them, before the webhook) with
 * the request kinds of a {@link WorkloadMix}. About one pod in ten carries a non-GPU init container in
 * front of its GPU container, the common service-mesh shape (spec §15.1).
 */
public final class WorkloadGenerator {

    private static final int[] MEM_SLICES = {2048, 4096, 8192, 16384};
    private static final int[] PERCENTAGES = {25, 50};

    private final WorkloadMix mix;
    private final ResourceNames names;
    private final List<String> knownTypes;
    private final List<String> knownUuids;
    private final Random random;
    private int sequence;

    /**
     * @param mix        request kinds and their weights
     * @param names      the configured resource names
     * @param knownTypes GPU types present in the cluster (for type selection)
     * @param knownUuids GPU UUIDs present in the cluster (for UUID selection)
     * @param seed       random seed: the same seed gives the same pods
     */
    public WorkloadGenerator(WorkloadMix mix, ResourceNames names, List<String> knownTypes, List<String> knownUuids,
                             long seed) {
        this.mix = mix;
        this.names = names;
        this.knownTypes = List.copyOf(knownTypes);
        this.knownUuids = List.copyOf(knownUuids);
        this.random = new Random(seed);
    }

    /**
     * The resource names the generated pods use.
     *
     * @param count      e.g. {@code nvidia.com/gpu}
     * @param memory     e.g. {@code nvidia.com/gpumem}
     * @param percentage e.g. {@code nvidia.com/gpumem-percentage}
     * @param cores      e.g. {@code nvidia.com/gpucores}
     */
    public record ResourceNames(String count, String memory, String percentage, String cores) {
    }

    /** The next pod; its UID and name are unique within the stream. */
    public GeneratedPod next() {
        int n = sequence++;
        WorkloadMix.Kind kind = mix.pick(random.nextInt(mix.total()));
        Map<String, String> limits = new HashMap<>();
        Map<String, String> annotations = new HashMap<>();
        switch (kind) {
            case WHOLE -> limits.put(names.count(), "1");
            case MEM -> {
                limits.put(names.count(), "1");
                limits.put(names.memory(), Integer.toString(MEM_SLICES[random.nextInt(MEM_SLICES.length)]));
            }
            case PCT -> {
                limits.put(names.count(), "1");
                limits.put(names.percentage(), Integer.toString(PERCENTAGES[random.nextInt(PERCENTAGES.length)]));
            }
            case CORES -> {
                limits.put(names.count(), "1");
                limits.put(names.memory(), "8192");
                limits.put(names.cores(), "30");
            }
            case MULTI -> {
                limits.put(names.count(), random.nextBoolean() ? "2" : "4");
                limits.put(names.memory(), "16384");
            }
            case TYPE -> {
                limits.put(names.count(), "1");
                limits.put(names.memory(), "8192");
                annotations.put(HamiAnnotations.USE_GPU_TYPE, shortType(knownTypes.get(random.nextInt(knownTypes.size()))));
            }
            case UUID -> {
                limits.put(names.count(), "1");
                limits.put(names.memory(), "4096");
                annotations.put(HamiAnnotations.USE_GPU_UUID, knownUuids.get(random.nextInt(knownUuids.size())));
            }
            default -> throw new IllegalStateException("unhandled kind " + kind);
        }
        List<Container> init = random.nextInt(10) == 0
                ? List.of(new Container("istio-init", Map.of(), Map.of(), false, List.of()))
                : List.of();
        String name = String.format("sim-%06d", n);
        PodSpec pod = new PodSpec(name, "team-" + (n % 4), String.format("00000000-0000-4000-8000-%012d", n), "", "",
                null, annotations, Map.of(), init, List.of(new Container("main", limits, Map.of(), false, List.of())));
        return new GeneratedPod(pod, kind);
    }

    /** A model name's distinctive part, e.g. {@code A100} of {@code NVIDIA A100-SXM4-80GB}. */
    private static String shortType(String type) {
        String t = type.startsWith("NVIDIA-") ? type.substring(7) : type.startsWith("NVIDIA ") ? type.substring(7) : type;
        String[] words = t.split("[ -]");
        return words[0].equals("Tesla") && words.length > 1 ? words[1] : words[0];
    }

    /**
     * A generated pod and the kind of request it makes.
     *
     * @param pod  the pod as the user wrote it
     * @param kind its request kind
     */
    public record GeneratedPod(PodSpec pod, WorkloadMix.Kind kind) {
    }
}
