package io.vgpu.deviceplugin.core.allocate;

import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What the plugin answers kubelet for one container of an {@code Allocate} (the
 * {@code ContainerAllocateResponse} of the device-plugin API, minus device specs, which this plugin
 * never emits).
 *
 * @param envs        environment variables added to the container (sorted by name)
 * @param mounts      mounts, in the order kubelet receives them
 * @param annotations container annotations (CDI annotation strategy)
 * @param cdiDevices  fully qualified CDI device names (CDI CRI strategy)
 */
public record ContainerResponse(SortedMap<String, String> envs, List<MountSpec> mounts,
                                Map<String, String> annotations, List<String> cdiDevices) {

    /** Copies every collection. */
    public ContainerResponse {
        envs = new TreeMap<>(envs);
        mounts = List.copyOf(mounts);
        annotations = Map.copyOf(annotations);
        cdiDevices = List.copyOf(cdiDevices);
    }

    /** A copy of the env variables, sorted by name. */
    @Override
    public SortedMap<String, String> envs() {
        return new TreeMap<>(envs);
    }
}
