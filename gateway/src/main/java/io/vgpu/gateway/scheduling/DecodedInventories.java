package io.vgpu.gateway.scheduling;

import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.model.NodeInventory;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per node, the registration last decoded from its annotations ({@link Recorded#inventory}), handed out again while
 * the annotations it is made of are unchanged. Each decision's lock and unlock annotation is a node event on the key's
 * owner, and the 15 s redelivery brings every owned node again: each decoded the same register annotation anew (3.7 %
 * of a replica's CPU in a warm three-replica cycle row). The decode is a function of the node's name and these
 * annotations alone, and its value is immutable, so a reused one is the one a decode would give.
 */
final class DecodedInventories {

    /** The annotations {@link Recorded#inventory} reads, and what it made of them. */
    private record Decode(String register, String scores, String cordon, Optional<NodeInventory> inventory) {

        boolean madeOf(Map<String, String> annotations) {
            return Objects.equals(register, annotations.get(HamiAnnotations.NODE_NVIDIA_REGISTER))
                    && Objects.equals(scores, annotations.get(HamiAnnotations.NODE_NVIDIA_SCORE))
                    && Objects.equals(cordon, annotations.get(HamiAnnotations.DEVICE_CORDON));
        }
    }

    private final Map<String, Decode> last = new ConcurrentHashMap<>();

    /** The node's registration, as {@link Recorded#inventory} decodes it. */
    Optional<NodeInventory> of(NodeObservation node) {
        Map<String, String> annotations = node.annotations();
        Decode known = last.get(node.name());
        if (known != null && known.madeOf(annotations)) {
            return known.inventory();
        }
        Optional<NodeInventory> decoded = Recorded.inventory(node);
        last.put(node.name(), new Decode(annotations.get(HamiAnnotations.NODE_NVIDIA_REGISTER),
                annotations.get(HamiAnnotations.NODE_NVIDIA_SCORE), annotations.get(HamiAnnotations.DEVICE_CORDON),
                decoded));
        return decoded;
    }

    /** A deleted node's decode goes with it. */
    void forget(String node) {
        last.remove(node);
    }
}
