package io.vgpu.state.codec;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The node annotation {@code hami.io/device-cordon} (HAMi scheduler spec §6.1): the GPU UUIDs an
 * operator excludes from new allocations. The gateway's fit skips them; in DRA mode the node agent
 * taints them. One parser for both, so they agree on what is cordoned. Pure.
 */
public final class DeviceCordon {

    private DeviceCordon() {
    }

    /**
     * The UUIDs a value lists: comma-separated, each trimmed as Go's {@code strings.TrimSpace} does,
     * empty items skipped; in the order listed. Null or blank means none.
     */
    public static Set<String> uuids(String value) {
        if (value == null || GoStrings.trimSpace(value).isEmpty()) {
            return Set.of();
        }
        Set<String> out = new LinkedHashSet<>();
        for (String item : value.split(",", -1)) {
            String uuid = GoStrings.trimSpace(item);
            if (!uuid.isEmpty()) {
                out.add(uuid);
            }
        }
        return Collections.unmodifiableSet(out);
    }
}
