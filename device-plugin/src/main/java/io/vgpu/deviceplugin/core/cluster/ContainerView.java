package io.vgpu.deviceplugin.core.cluster;

import java.util.Map;

/**
 * What the device plugin needs of one container of the pod it allocates.
 *
 * @param name the container name (part of the per-container cache directory name)
 * @param env  the container's literal env values by name ({@code valueFrom} entries are absent);
 *             only {@code CUDA_DISABLE_CONTROL} is read
 */
public record ContainerView(String name, Map<String, String> env) {

    /** Copies the env map; null means none. */
    public ContainerView {
        name = name == null ? "" : name;
        env = env == null ? Map.of() : Map.copyOf(env);
    }

    /** A container without env. */
    public static ContainerView named(String name) {
        return new ContainerView(name, Map.of());
    }
}
