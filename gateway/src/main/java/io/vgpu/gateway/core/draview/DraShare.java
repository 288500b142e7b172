package io.vgpu.gateway.core.draview;

import java.util.List;

/**
 * One claim's share of one DRA-mode card, as the gauges and {@code /debug/state} show it.
 *
 * @param namespace the claim's namespace
 * @param claim     the claim's name
 * @param pods      the pods it is reserved for
 * @param node      the card's node
 * @param device    the device name in the slice
 * @param uuid      the card's UUID
 * @param memoryMiB memory consumed, MiB
 * @param cores     cores consumed, percent
 * @param slots     slots consumed (of 1000)
 */
public record DraShare(String namespace, String claim, List<String> pods, String node, String device, String uuid,
                       long memoryMiB, long cores, long slots) {

    /** Copies the pod list. */
    public DraShare {
        pods = pods == null ? List.of() : List.copyOf(pods);
    }
}
