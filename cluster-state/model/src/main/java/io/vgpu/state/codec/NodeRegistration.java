package io.vgpu.state.codec;

import io.vgpu.state.model.GpuDevice;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a node registers for NVIDIA: its devices in annotation order and the optional pairwise link
 * scores ({@code hami.io/node-nvidia-score}) attached to them by UUID.
 *
 * @param devices    the registered devices, never empty when produced by {@link NodeRegisterCodec#read}
 * @param pairScores per device UUID, the link score to every other UUID named; a device or pair that is
 *                   absent scores 0
 */
public record NodeRegistration(List<GpuDevice> devices, Map<String, Map<String, Integer>> pairScores) {

    /** Copies both collections; the score map keeps device order. */
    public NodeRegistration {
        devices = List.copyOf(devices);
        Map<String, Map<String, Integer>> copy = new LinkedHashMap<>();
        pairScores.forEach((uuid, scores) -> copy.put(uuid, Map.copyOf(scores)));
        pairScores = Collections.unmodifiableMap(copy);
    }

    /** The link score between two devices; 0 when either is unknown or the pair is not listed. */
    public int pairScore(String uuid, String otherUuid) {
        return pairScores.getOrDefault(uuid, Map.of()).getOrDefault(otherUuid, 0);
    }
}
