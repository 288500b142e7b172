package io.vgpu.deviceplugin.cdi;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * How a container gets the NVIDIA driver's libraries and utilities, which a vGPU share needs as much
 * as the device node. One decision for both modes of the node agent: DRA mode's per-claim specs and
 * device-plugin mode's {@code cdi-annotations} / {@code cdi-cri} spec ({@link DevicePluginSpec}) make it
 * the same way. Two ways, chosen per node:
 * <ul>
 *   <li><b>by reference</b> to the static CDI spec that {@code nvidia-ctk cdi generate} writes
 *       (kind {@value #NVIDIA_KIND}, in {@code /etc/cdi} or {@code /var/run/cdi}): each GPU's answer
 *       (a prepared claim's, or an {@code Allocate} response's CDI names) also names that spec's device for the same GPU (found by its device node
 *       {@code /dev/nvidia<minor>}, whatever naming strategy generated it), so the runtime applies
 *       NVIDIA's own edits (libraries, {@code nvidia-cdi-hook}s, control nodes) next to ours;</li>
 *   <li><b>by the NVIDIA runtime</b>: nothing is referenced; the NVIDIA container runtime (the node's
 *       default runtime, as device-plugin mode already requires) sees
 *       {@code NVIDIA_VISIBLE_DEVICES} in the container and injects the libraries.</li>
 * </ul>
 * {@link Mode#AUTO} (the default) takes the static spec when one covers every GPU this node offers,
 * else the runtime. Pure.
 *
 * @param byMinor the static spec's qualified device name per minor number; empty = the runtime
 * @param source  where the choice came from, for logs and the GPU check
 */
public record DriverLibraries(Map<Integer, String> byMinor, String source) {

    /** The kind {@code nvidia-ctk cdi generate} writes. */
    public static final String NVIDIA_KIND = "nvidia.com/gpu";

    /** Nothing referenced: the NVIDIA runtime injects the libraries. */
    public static DriverLibraries runtime(String why) {
        return new DriverLibraries(Map.of(), why);
    }

    /** Copies the map. */
    public DriverLibraries {
        byMinor = Map.copyOf(byMinor);
        Objects.requireNonNull(source, "source");
    }

    /** True when GPUs are referenced in a static spec. */
    public boolean byReference() {
        return !byMinor.isEmpty();
    }

    /** The static spec's device for {@code /dev/nvidia<minor>}. */
    public Optional<String> device(int minor) {
        return Optional.ofNullable(byMinor.get(minor));
    }

    /**
     * The choice for the GPUs with these minor numbers ({@code /dev/nvidia<minor>}) given the specs found on the node.
     *
     * @param minors the minor numbers of every GPU the node offers
     * @param specs the readable specs of the static directories, each with where it came from
     * @return the choice; for {@link Mode#CDI} without a complete static spec, a runtime choice whose
     *         source says so (prepare then refuses: see {@link #missing})
     */
    public static DriverLibraries choose(Mode mode, Collection<Integer> minors, List<Map.Entry<String, CdiSpec>> specs) {
        if (mode == Mode.RUNTIME) {
            return runtime("the NVIDIA runtime (VGPU_DRA_DRIVER_LIBRARIES=runtime)");
        }
        for (Map.Entry<String, CdiSpec> found : specs) {
            CdiSpec spec = found.getValue();
            if (!NVIDIA_KIND.equals(spec.kind())) {
                continue;
            }
            Map<Integer, String> byMinor = new LinkedHashMap<>();
            for (int minor : minors) {
                deviceFor(spec, "/dev/nvidia" + minor).ifPresent(d -> byMinor.put(minor, spec.qualifiedName(d)));
            }
            if (!minors.isEmpty() && byMinor.size() == Set.copyOf(minors).size()) {
                return new DriverLibraries(byMinor, "static CDI spec " + found.getKey());
            }
        }
        return runtime(mode == Mode.CDI
                ? "no static " + NVIDIA_KIND + " CDI spec covers every GPU of this node (VGPU_DRA_DRIVER_LIBRARIES=cdi)"
                : "the NVIDIA runtime (no static " + NVIDIA_KIND + " CDI spec covers every GPU of this node)");
    }

    /**
     * With {@link Mode#CDI}, the refusal for the GPU {@code /dev/nvidia<minor>} (called {@code name} in the
     * message) when no static spec covers it; empty when nothing is missing.
     */
    public Optional<String> missing(Mode mode, int minor, String name) {
        if (mode != Mode.CDI || byMinor.containsKey(minor)) {
            return Optional.empty();
        }
        return Optional.of("driver libraries for " + name + ": " + source);
    }

    /** The spec's single-GPU device whose only NVIDIA GPU node is {@code node} (never its {@code all} device). */
    private static Optional<CdiDevice> deviceFor(CdiSpec spec, String node) {
        return spec.devices().stream()
                .filter(d -> {
                    List<String> gpuNodes = d.containerEdits().deviceNodes().stream().map(DeviceNode::path)
                            .filter(p -> p.matches("/dev/nvidia\\d+")).toList();
                    return gpuNodes.equals(List.of(node));
                })
                .findFirst();
    }

    /** {@code VGPU_DRA_DRIVER_LIBRARIES}. */
    public enum Mode {
        /** The static spec when one covers every GPU, else the runtime. */
        AUTO,
        /** Only the static spec; a GPU without one fails prepare. */
        CDI,
        /** Only the runtime. */
        RUNTIME
    }
}
