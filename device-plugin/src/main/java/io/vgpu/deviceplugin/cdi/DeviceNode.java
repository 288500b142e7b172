package io.vgpu.deviceplugin.cdi;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * A device node a CDI edit creates in the container. Only {@code path} is required: the runtime
 * reads type, major and minor from the host node at {@code hostPath} (default {@code path}).
 *
 * @param path        absolute path in the container, e.g. {@code /dev/nvidia0}
 * @param hostPath    absolute path on the host when it differs (needs cdiVersion 0.5.0)
 * @param type        {@code c}, {@code b} or {@code p}
 * @param major       major number
 * @param minor       minor number
 * @param permissions cgroup access, a non-empty subset of {@code rwm}
 */
public record DeviceNode(String path, Optional<String> hostPath, Optional<String> type, OptionalLong major,
                         OptionalLong minor, Optional<String> permissions) {

    /** @throws IllegalArgumentException for a relative path or bad permissions */
    public DeviceNode {
        CdiNames.requireAbsolute(path, "device node path");
        hostPath = hostPath == null ? Optional.empty() : hostPath;
        hostPath.ifPresent(p -> CdiNames.requireAbsolute(p, "device node hostPath"));
        type = type == null ? Optional.empty() : type;
        major = major == null ? OptionalLong.empty() : major;
        minor = minor == null ? OptionalLong.empty() : minor;
        permissions = permissions == null ? Optional.empty() : permissions;
        if (permissions.isPresent() && !permissions.get().matches("[rwm]{1,3}")) {
            throw new IllegalArgumentException("device node permissions must be a subset of rwm, got " + permissions.get());
        }
    }

    /** A node the runtime describes from the host node at the same path. */
    public static DeviceNode of(String path) {
        return new DeviceNode(path, Optional.empty(), Optional.empty(), OptionalLong.empty(), OptionalLong.empty(),
                Optional.empty());
    }
}
