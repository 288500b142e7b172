package io.vgpu.state.model;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.vgpu.state.model.NodeStateFixtures.gpu;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A node's facts (devices, pair scores) are one instance across the copies a replica holds of the node and across
 * its versions (issue 14's heap), and still read-only values equal to what was given.
 */
class NodeFactsSharingTest {

    /** Scores as a decoder builds them: fresh mutable maps, rows in {@code order}. */
    private static Map<String, Map<String, Integer>> scores(String... order) {
        Map<String, Map<String, Integer>> out = new LinkedHashMap<>();
        for (String from : order) {
            Map<String, Integer> row = new LinkedHashMap<>();
            for (String to : order) {
                if (!to.equals(from)) {
                    row.put(new String(to), 40);
                }
            }
            out.put(new String(from), row);
        }
        return out;
    }

    /** Devices as a decoder builds them: a fresh mutable list of fresh records. */
    private static List<GpuDevice> devices() {
        return new ArrayList<>(List.of(gpu("GPU-share-0", 8000, true), gpu("GPU-share-1", 8000, true)));
    }

    private static NodeState decoded(String name) {
        return new NodeState(name, true, devices(), Map.of(), scores("GPU-share-0", "GPU-share-1"), Map.of(), null);
    }

    @Test
    void twoCopiesOfANodeShareItsDevicesAndPairScores() {
        NodeState value = decoded("n-share");
        NodeState ownedCopy = decoded("n-share");
        NodeInventory inventory = new NodeInventory("n-share", devices(), Map.of(),
                scores("GPU-share-0", "GPU-share-1"));

        assertThat(ownedCopy.pairScores()).isSameAs(value.pairScores()).isSameAs(inventory.pairScores())
                .isEqualTo(scores("GPU-share-0", "GPU-share-1"));
        assertThat(ownedCopy.devices()).isSameAs(value.devices()).isSameAs(inventory.devices())
                .isEqualTo(devices());
    }

    @Test
    void aNewVersionAndTheViewKeepTheValuesFacts() {
        NodeState value = decoded("n-version");
        NodeState next = value.withVersion(value.version() + 1);

        assertThat(next.pairScores()).isSameAs(value.pairScores());
        assertThat(next.devices()).isSameAs(value.devices());
        assertThat(value.view().pairScores()).isSameAs(value.pairScores());
    }

    @Test
    void scoresInAnotherOrderAreNotSharedAndKeepTheirOrder() {
        NodeState forward = decoded("n-order");
        NodeState backward = new NodeState("n-order", true, devices(), Map.of(),
                scores("GPU-share-1", "GPU-share-0"), Map.of(), null);

        assertThat(backward.pairScores()).isEqualTo(forward.pairScores()).isNotSameAs(forward.pairScores());
        assertThat(backward.pairScores().keySet()).containsExactly("GPU-share-1", "GPU-share-0");
        assertThat(forward.pairScores().keySet()).containsExactly("GPU-share-0", "GPU-share-1");
    }

    @Test
    void sharedScoresAreReadOnlyAndAChangeToTheGivenMapsIsNotSeen() {
        Map<String, Map<String, Integer>> given = scores("GPU-ro-0", "GPU-ro-1");
        NodeState value = new NodeState("n-ro", true, devices(), Map.of(), given, Map.of(), null);
        given.get("GPU-ro-0").put("GPU-ro-1", 99);
        given.clear();

        assertThat(value.pairScores()).containsOnlyKeys("GPU-ro-0", "GPU-ro-1");
        assertThat(value.pairScores().get("GPU-ro-0")).containsEntry("GPU-ro-1", 40);
        assertThatThrownBy(() -> value.pairScores().put("x", Map.of())).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> value.pairScores().get("GPU-ro-0").clear())
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> value.pairScores().entrySet().iterator().remove())
                .isInstanceOf(UnsupportedOperationException.class);
    }
}
