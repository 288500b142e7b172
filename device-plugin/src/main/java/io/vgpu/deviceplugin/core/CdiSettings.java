package io.vgpu.deviceplugin.core;

import java.util.List;

/**
 * CDI naming for the CDI device-list strategies.
 *
 * @param annotationPrefix  container annotation key prefix, default {@value #DEFAULT_ANNOTATION_PREFIX}
 * @param vendor            CDI vendor of the qualified names, default {@value #DEFAULT_VENDOR}
 * @param additionalDevices fully qualified names added to every response (e.g. {@code <vendor>/gds=all})
 */
public record CdiSettings(String annotationPrefix, String vendor, List<String> additionalDevices) {

    /** NVIDIA's default CDI annotation prefix. */
    public static final String DEFAULT_ANNOTATION_PREFIX = "cdi.k8s.io/";
    /** The CDI vendor the NVIDIA device plugin generates its spec for. */
    public static final String DEFAULT_VENDOR = "k8s.device-plugin.nvidia.com";

    /** Copies the list; null means none. */
    public CdiSettings {
        additionalDevices = additionalDevices == null ? List.of() : List.copyOf(additionalDevices);
    }

    /** The defaults, without additional devices. */
    public static CdiSettings defaults() {
        return new CdiSettings(DEFAULT_ANNOTATION_PREFIX, DEFAULT_VENDOR, List.of());
    }

    /** {@code <vendor>/<deviceClass>=<id>}. */
    public String qualifiedName(String deviceClass, String id) {
        return vendor + "/" + deviceClass + "=" + id;
    }
}
