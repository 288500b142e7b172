package io.vgpu.gateway.scheduling;

import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.codec.NodeRegistration;
import io.vgpu.state.codec.PodDevicesCodec;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.NodeInventory;
import io.vgpu.state.model.PodAllocation;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the API objects record for the shared state, read from their HAMi annotations: the node a pod is charged to,
 * its allocation, a node's registration. Ingest and the bind's confirmation read them the same way.
 */
final class Recorded {

    private Recorded() {
    }

    /** The node a pod is charged to: its {@code hami.io/vgpu-node} annotation (spec §8.1); null when none. */
    static String chargedNode(PodSpec spec) {
        String node = spec.annotation(HamiAnnotations.VGPU_NODE);
        return node == null || node.isEmpty() ? null : node;
    }

    /** The allocation {@code hami.io/vgpu-devices-allocated} records; null when absent or undecodable. */
    static PodAllocation allocation(PodSpec spec) {
        String allocated = spec.annotation(HamiAnnotations.DEVICES_ALLOCATED);
        if (allocated == null) {
            return null;
        }
        Decoded<List<List<ContainerDevice>>> decoded = PodDevicesCodec.decode(allocated);
        return decoded.isOk() ? new PodAllocation(decoded.value(), spec.initContainers().size()) : null;
    }

    /** The registration of a node as the store keeps it, or empty when it has no decodable annotation. */
    static Optional<NodeInventory> inventory(NodeObservation node) {
        Decoded<NodeRegistration> reg = NodeRegisterCodec.read(node.annotations());
        if (!reg.isOk()) {
            return Optional.empty();
        }
        Map<String, String> fitAnnotations = new LinkedHashMap<>();
        String cordon = node.annotations().get(HamiAnnotations.DEVICE_CORDON);
        if (cordon != null) {
            fitAnnotations.put(HamiAnnotations.DEVICE_CORDON, cordon);
        }
        return Optional.of(new NodeInventory(node.name(), reg.value().devices(), fitAnnotations,
                reg.value().pairScores()));
    }
}
