package io.vgpu.deviceplugin.cdi;

import java.util.List;
import java.util.Optional;

/**
 * A mount a CDI edit adds to the container.
 *
 * @param hostPath      absolute path on the host
 * @param containerPath absolute path in the container
 * @param type          mount type (needs cdiVersion 0.4.0); absent for a plain bind mount
 * @param options       mount options, e.g. {@code ro, nosuid, nodev, bind}
 */
public record Mount(String hostPath, String containerPath, Optional<String> type, List<String> options) {

    /** @throws IllegalArgumentException for a relative path */
    public Mount {
        CdiNames.requireAbsolute(hostPath, "mount hostPath");
        CdiNames.requireAbsolute(containerPath, "mount containerPath");
        type = type == null ? Optional.empty() : type;
        options = List.copyOf(options);
    }

    /** A bind mount of {@code hostPath} at {@code containerPath}, {@code nosuid,nodev}, read-only or read-write. */
    public static Mount bind(String hostPath, String containerPath, boolean readOnly) {
        return new Mount(hostPath, containerPath, Optional.empty(),
                List.of(readOnly ? "ro" : "rw", "nosuid", "nodev", "bind"));
    }
}
