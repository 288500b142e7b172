package io.vgpu.deviceplugin.core.mode;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What a mode switch of one node is checked against, read live from the API server (and, for prepared
 * claims, the kubelet plugin's own record) just before the switch.
 *
 * @param node            the node
 * @param nodeAnnotations its annotations (the node lock)
 * @param pods            pods bound to the node, and pods the HAMi scheduler placed on it (label
 *                        {@code hami.io/vgpu-node}) that are not bound yet
 * @param claims          ResourceClaims with a result of driver {@code gpu.vgpu.io} in this node's pool
 * @param prepared        UIDs of the claims prepared on this node and not unprepared yet
 */
public record ModeSnapshot(String node, Map<String, String> nodeAnnotations, List<Pod> pods, List<Claim> claims,
                           Set<String> prepared) {

    /** Copies the collections. */
    public ModeSnapshot {
        Objects.requireNonNull(node, "node");
        nodeAnnotations = Map.copyOf(nodeAnnotations);
        pods = List.copyOf(pods);
        claims = List.copyOf(claims);
        prepared = Set.copyOf(prepared);
    }

    /**
     * A pod as a switch sees it.
     *
     * @param key          {@code namespace/name}
     * @param phase        {@code status.phase} ("" unknown)
     * @param nodeName     {@code spec.nodeName} ("" unbound)
     * @param annotations  its {@code hami.io/*} annotations
     * @param requestsVgpu a container or init container asks for the node's vGPU resource (e.g. {@code nvidia.com/gpu})
     */
    public record Pod(String key, String phase, String nodeName, Map<String, String> annotations, boolean requestsVgpu) {

        /** Copies the map; nulls become empty. */
        public Pod {
            Objects.requireNonNull(key, "key");
            phase = phase == null ? "" : phase;
            nodeName = nodeName == null ? "" : nodeName;
            annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
        }
    }

    /**
     * A claim allocated on this node.
     *
     * @param key {@code namespace/name}
     * @param uid its UID
     */
    public record Claim(String key, String uid) {
    }
}
