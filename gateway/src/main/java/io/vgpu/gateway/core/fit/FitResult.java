package io.vgpu.gateway.core.fit;

import io.vgpu.state.model.ContainerDevice;

import java.util.List;

/**
 * What NVIDIA Fit decided for one container request on one node.
 *
 * @param fit    whether the request can be placed
 * @param picks  on success the chosen devices in HAMi's order (the walk order, or the topology-aware
 *               selection); on failure the partial selection HAMi also returns (callers ignore it).
 *               {@code usedmem} is the resolved memory request (percentages applied), {@code usedcores}
 *               the clamped core request; MIG picks are resized by the caller's usage update
 * @param reason "" on success, else HAMi's exact reason string, e.g.
 *               {@code 1/10 CardInsufficientCore, 2/10 CardInsufficientMemory}
 */
public record FitResult(boolean fit, List<ContainerDevice> picks, String reason) {

    /** Copies the picks; a null reason becomes "". */
    public FitResult {
        picks = List.copyOf(picks);
        reason = reason == null ? "" : reason;
    }
}
