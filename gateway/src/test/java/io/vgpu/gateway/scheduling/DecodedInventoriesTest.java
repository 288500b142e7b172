package io.vgpu.gateway.scheduling;

import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.NodeInventory;
import io.vgpu.state.model.fixtures.GpuFixtures;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node's lock events and redeliveries carry the register annotation it had: its registration is decoded once, and
 * again only when an annotation the registration is made of changes (what a decode would give, every time).
 */
class DecodedInventoriesTest {

    private static final GpuDevice GPU = GpuFixtures.card("GPU-0").memMiB(8000).type("NVIDIA A100").build();
    private static final GpuDevice BIGGER = GpuFixtures.card("GPU-0").memMiB(16000).type("NVIDIA A100").build();

    private final DecodedInventories inventories = new DecodedInventories();

    @Test
    void reusesTheDecodeWhileOnlyTheLockAnnotationChanges() {
        Optional<NodeInventory> first = inventories.of(node("1", GPU, Map.of()));
        // the lock event: a new observation, an equal register annotation in a string of its own
        Optional<NodeInventory> locked = inventories.of(node("2", GPU, Map.of(HamiAnnotations.NODE_LOCK, "locked")));

        assertThat(locked).isSameAs(first).isEqualTo(Recorded.inventory(node("2", GPU, Map.of()))).isPresent();
    }

    @Test
    void decodesAgainWhenTheRegisterScoreOrCordonAnnotationChanges() {
        Optional<NodeInventory> first = inventories.of(node("1", GPU, Map.of()));

        NodeObservation bigger = node("2", BIGGER, Map.of());
        assertThat(inventories.of(bigger)).isNotEqualTo(first).isEqualTo(Recorded.inventory(bigger));
        NodeObservation cordoned = node("3", BIGGER, Map.of(HamiAnnotations.DEVICE_CORDON, "GPU-0"));
        assertThat(inventories.of(cordoned)).isEqualTo(Recorded.inventory(cordoned))
                .hasValueSatisfying(i -> assertThat(i.annotations()).containsKey(HamiAnnotations.DEVICE_CORDON));
        NodeObservation scored = node("4", BIGGER, Map.of(HamiAnnotations.NODE_NVIDIA_SCORE, "[]"));
        assertThat(inventories.of(scored)).isEqualTo(Recorded.inventory(scored));
        NodeObservation undecodable = new NodeObservation("n1", Map.of(HamiAnnotations.NODE_NVIDIA_REGISTER, "{"), 1,
                "5");
        assertThat(inventories.of(undecodable)).isEmpty();
    }

    @Test
    void aForgottenNodeIsDecodedAnew() {
        Optional<NodeInventory> first = inventories.of(node("1", GPU, Map.of()));
        inventories.forget("n1");

        assertThat(inventories.of(node("2", GPU, Map.of()))).isNotSameAs(first).isEqualTo(first);
    }

    private static NodeObservation node(String version, GpuDevice gpu, Map<String, String> more) {
        Map<String, String> annotations = new HashMap<>(more);
        annotations.put(HamiAnnotations.NODE_NVIDIA_REGISTER, new String(NodeRegisterCodec.encode(List.of(gpu))));
        return new NodeObservation("n1", annotations, 1, version);
    }
}
