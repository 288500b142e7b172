package io.vgpu.state.model;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
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

    /** The same scores, rows and their entries in the opposite order. */
    private static Map<String, Map<String, Integer>> reversed(Map<String, Map<String, Integer>> scores) {
        List<String> rows = new ArrayList<>(scores.keySet());
        Collections.reverse(rows);
        Map<String, Map<String, Integer>> out = new LinkedHashMap<>();
        for (String from : rows) {
            List<String> peers = new ArrayList<>(scores.get(from).keySet());
            Collections.reverse(peers);
            Map<String, Integer> row = new LinkedHashMap<>();
            peers.forEach(to -> row.put(to, scores.get(from).get(to)));
            out.put(from, row);
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
    void scoresInAnotherOrderShareTheFirstCopy() {
        NodeState forward = new NodeState("n-order", true, devices(), Map.of(),
                scores("GPU-order-0", "GPU-order-1", "GPU-order-2"), Map.of(), null);
        NodeState backward = new NodeState("n-order", true, devices(), Map.of(),
                reversed(scores("GPU-order-0", "GPU-order-1", "GPU-order-2")), Map.of(), null);

        assertThat(backward.pairScores()).isSameAs(forward.pairScores());
        assertThat(backward.pairScores().keySet()).containsExactly("GPU-order-0", "GPU-order-1", "GPU-order-2");
        assertThat(backward.pairScores().get("GPU-order-0").keySet()).containsExactly("GPU-order-1", "GPU-order-2");
    }

    @Test
    void devicesAlreadyImmutableOrOfARegistrationShareTheDecodedCopy() {
        NodeState value = decoded("n-immutable");
        NodeInventory fromImmutable = new NodeInventory("n-immutable", List.copyOf(devices()), Map.of(),
                scores("GPU-share-0", "GPU-share-1"));
        NodeInventory registration = StringPool.canonical(new NodeInventory("n-immutable", devices(), Map.of(),
                scores("GPU-share-0", "GPU-share-1")));
        NodeState registered = NodeState.absent("n-immutable").register(registration).next();

        assertThat(fromImmutable.devices()).isSameAs(value.devices());
        assertThat(registration.devices()).isSameAs(value.devices());
        assertThat(registered.devices()).isSameAs(value.devices()).isEqualTo(devices());
        assertThatThrownBy(() -> value.devices().set(0, null)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> value.devices().iterator().remove())
                .isInstanceOf(UnsupportedOperationException.class);
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
