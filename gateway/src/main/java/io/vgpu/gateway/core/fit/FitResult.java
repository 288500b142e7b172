package io.vgpu.gateway.core.fit;

import io.vgpu.gateway.core.reason.DeviceRejection;
import io.vgpu.state.model.ContainerDevice;

import java.util.List;

/**
 * What NVIDIA Fit decided for one container request on one node.
 *
 * @param fit       whether the request can be placed
 * @param picks     on success the chosen devices in HAMi's order (the walk order, or the topology-aware
 *                  selection); on failure the partial selection HAMi also returns (callers ignore it).
 *                  {@code usedmem} is the resolved memory request (percentages applied), {@code usedcores}
 *                  the clamped core request; MIG picks are resized by the caller's usage update
 * @param rejection null on success, else HAMi's counters, e.g. {@code 1/10 CardInsufficientCore,
 *                  2/10 CardInsufficientMemory} as text
 */
public record FitResult(boolean fit, List<ContainerDevice> picks, DeviceRejection rejection) {

    /** Copies the picks; a failure needs its rejection. */
    public FitResult {
        picks = List.copyOf(picks);
        if (!fit && rejection == null) {
            throw new IllegalArgumentException("a failed Fit needs its rejection");
        }
    }

    /** A success with {@code picks}. */
    static FitResult fits(List<ContainerDevice> picks) {
        return new FitResult(true, picks, null);
    }
}
