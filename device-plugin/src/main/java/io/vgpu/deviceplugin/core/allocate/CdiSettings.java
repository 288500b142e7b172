package io.vgpu.deviceplugin.core.allocate;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * CDI naming for the CDI device-list strategies.
 *
 * @param annotationPrefix  container annotation key prefix, default {@value #DEFAULT_ANNOTATION_PREFIX}
 * @param vendor            CDI vendor of the qualified names, default {@value #DEFAULT_VENDOR}
 * @param additionalDevices fully qualified names added to every response (e.g. {@code <vendor>/gds=all})
 * @param libraries         how the container gets the driver libraries next to the named GPUs
 */
public record CdiSettings(String annotationPrefix, String vendor, List<String> additionalDevices, Libraries libraries) {

    /** NVIDIA's default CDI annotation prefix. */
    public static final String DEFAULT_ANNOTATION_PREFIX = "cdi.k8s.io/";
    /** The CDI vendor the NVIDIA device plugin generates its spec for. */
    public static final String DEFAULT_VENDOR = "k8s.device-plugin.nvidia.com";

    /** Copies the list; null means none (libraries: {@link Libraries#IN_SPEC}). */
    public CdiSettings {
        additionalDevices = additionalDevices == null ? List.of() : List.copyOf(additionalDevices);
        libraries = libraries == null ? Libraries.IN_SPEC : libraries;
    }

    /** Settings whose named spec carries the libraries itself (HAMi's and NVIDIA's plugin: {@code nvidia-ctk}'s spec). */
    public CdiSettings(String annotationPrefix, String vendor, List<String> additionalDevices) {
        this(annotationPrefix, vendor, additionalDevices, Libraries.IN_SPEC);
    }

    /** The defaults, without additional devices. */
    public static CdiSettings defaults() {
        return new CdiSettings(DEFAULT_ANNOTATION_PREFIX, DEFAULT_VENDOR, List.of());
    }

    /** These settings with {@code libraries}. */
    public CdiSettings with(Libraries libraries) {
        return new CdiSettings(annotationPrefix, vendor, additionalDevices, libraries);
    }

    /** {@code <vendor>/<deviceClass>=<id>}. */
    public String qualifiedName(String deviceClass, String id) {
        return vendor + "/" + deviceClass + "=" + id;
    }

    /**
     * How a container that gets GPUs by CDI name gets the NVIDIA driver's libraries (the node agent's
     * {@code DriverLibraries} decision, in the core's terms).
     *
     * @param agentSpec  false: the spec behind the names carries them ({@code nvidia-ctk}'s, as NVIDIA's
     *                   plugin generates it; HAMi's behaviour, and the conformance vectors'). True: the names
     *                   refer to the node agent's own spec, which creates device nodes only, so the answer also
     *                   sets {@code NVIDIA_VISIBLE_DEVICES} to the container's GPUs (the NVIDIA runtime injects
     *                   the libraries, as in DRA mode) and names {@link #staticById} devices next to ours
     * @param staticById per runtime device ID (UUID or index), the qualified name of the same GPU in
     *                   {@code nvidia-ctk}'s static spec; empty when no static spec covers the node
     */
    public record Libraries(boolean agentSpec, Map<String, String> staticById) {

        /** The named spec carries the libraries. */
        public static final Libraries IN_SPEC = new Libraries(false, Map.of());

        /** Copies the map. */
        public Libraries {
            staticById = Map.copyOf(Objects.requireNonNull(staticById, "staticById"));
        }

        /** The node agent's spec, with the static spec's devices by runtime ID (empty: none). */
        public static Libraries agentSpec(Map<String, String> staticById) {
            return new Libraries(true, staticById);
        }
    }
}
