package io.vgpu.deviceplugin.core.allocate;

import java.util.List;

/**
 * One container of a kubelet {@code GetPreferredAllocation} call.
 *
 * @param available      fake device IDs kubelet may choose from
 * @param mustInclude    IDs kubelet has already decided on
 * @param allocationSize how many IDs kubelet wants
 */
public record PreferredRequest(List<String> available, List<String> mustInclude, int allocationSize) {

    /** Copies lists; null means none. */
    public PreferredRequest {
        available = available == null ? List.of() : List.copyOf(available);
        mustInclude = mustInclude == null ? List.of() : List.copyOf(mustInclude);
    }
}
