package io.vgpu.gateway.core.dra;

import io.vgpu.state.dra.DraNames;

import java.util.Map;
import java.util.Optional;

/**
 * Which path a pod takes at admission: DRA claims or HAMi's device-plugin wire. In this precedence:
 * <ol>
 *   <li>the pod annotation {@value #KEY}: {@code dra} or {@code device-plugin}; any other value is refused
 *       (a typo must not silently pick a path);</li>
 *   <li>else the namespace label {@value #KEY} with one of those values (any other value counts as unset);</li>
 *   <li>else the cluster default ({@code VGPU_DRA_DEFAULT}).</li>
 * </ol>
 * A namespace the gateway's cache does not know (yet) counts as unlabelled. Pure.
 */
public final class DraMode {

    /** The pod annotation and namespace label (the same key as the node label of DRA mode). */
    public static final String KEY = DraNames.MODE_LABEL;
    /** The value that selects DRA. */
    public static final String DRA = DraNames.MODE_DRA;
    /** The value that selects HAMi's device-plugin path. */
    public static final String DEVICE_PLUGIN = "device-plugin";

    private DraMode() {
    }

    /** The choice for one pod. */
    public sealed interface Choice permits Dra, DevicePlugin, Invalid {
    }

    /** @param source where the choice came from: {@code pod annotation}, {@code namespace label} or {@code cluster default} */
    public record Dra(String source) implements Choice {
    }

    /** @param source as in {@link Dra} */
    public record DevicePlugin(String source) implements Choice {
    }

    /** @param message why the pod's annotation is refused */
    public record Invalid(String message) implements Choice {
    }

    /**
     * @param podAnnotations  the pod's annotations
     * @param namespaceLabels the namespace's labels, empty when the namespace is not known
     * @param draByDefault    the cluster default
     */
    public static Choice of(Map<String, String> podAnnotations, Optional<Map<String, String>> namespaceLabels,
                            boolean draByDefault) {
        String pod = podAnnotations.get(KEY);
        if (pod != null) {
            Optional<Choice> c = parse(pod, "pod annotation");
            return c.orElseGet(() -> new Invalid("pod annotation " + KEY + "=\"" + pod + "\": expected \"" + DRA
                    + "\" or \"" + DEVICE_PLUGIN + "\""));
        }
        Optional<Choice> ns = namespaceLabels.map(l -> l.get(KEY)).flatMap(v -> parse(v, "namespace label"));
        if (ns.isPresent()) {
            return ns.get();
        }
        return draByDefault ? new Dra("cluster default") : new DevicePlugin("cluster default");
    }

    private static Optional<Choice> parse(String value, String source) {
        if (DRA.equals(value)) {
            return Optional.of(new Dra(source));
        }
        return DEVICE_PLUGIN.equals(value) ? Optional.of(new DevicePlugin(source)) : Optional.empty();
    }
}
