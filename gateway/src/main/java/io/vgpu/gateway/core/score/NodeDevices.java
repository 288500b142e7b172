package io.vgpu.gateway.core.score;

import io.vgpu.gateway.core.fit.PairScores;
import io.vgpu.state.model.DeviceUsage;

import java.util.List;
import java.util.Map;

/**
 * One candidate node as the scorer sees it: its usage view (spec §8.3), its pair scores and its
 * annotations (for {@code hami.io/device-cordon}). Immutable.
 *
 * @param node        node name
 * @param devices     usage of every registered device, in registration order (the order decides ties)
 * @param pairScores  the node's {@code hami.io/node-nvidia-score} scores
 * @param annotations the node's annotations
 */
public record NodeDevices(String node, List<DeviceUsage> devices, PairScores pairScores,
                          Map<String, String> annotations) {

    /** Copies; nulls become empty. */
    public NodeDevices {
        node = node == null ? "" : node;
        devices = devices == null ? List.of() : List.copyOf(devices);
        pairScores = pairScores == null ? PairScores.NONE : pairScores;
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
    }
}
