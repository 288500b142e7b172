package io.vgpu.deviceplugin.core.monitor;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MonitorInMemoryPodDirectoryTest {

    static MonitoredPod pod(String uid, String nodeName, String assignedLabel) {
        Map<String, String> labels = assignedLabel == null ? Map.of()
                : Map.of(MonitoredPod.ASSIGNED_NODE_LABEL, assignedLabel);
        return new MonitoredPod(uid, "ns", "p-" + uid, nodeName, labels, Map.of(), List.of(), List.of("c"));
    }

    @Test
    void selectsByNodeNameAndByHamiLabelSeparately() {
        InMemoryPodDirectory pods = new InMemoryPodDirectory()
                .put(pod("bound-and-labelled", "node-a", "node-a"))
                .put(pod("bound-by-other-scheduler", "node-a", null))
                .put(pod("labelled-not-yet-bound", "", "node-a"))
                .put(pod("elsewhere", "node-b", "node-b"));

        assertThat(pods.podsOnNode("node-a").toCompletableFuture().join()).extracting(MonitoredPod::uid)
                .containsExactly("bound-and-labelled", "bound-by-other-scheduler");
        assertThat(pods.podsAssignedTo("node-a").toCompletableFuture().join()).extracting(MonitoredPod::uid)
                .containsExactly("bound-and-labelled", "labelled-not-yet-bound");
    }

    @Test
    void replacesAndRemovesByUid() {
        InMemoryPodDirectory pods = new InMemoryPodDirectory().put(pod("a", "node-a", null)).put(pod("b", "node-a", null));
        pods.put(pod("a", "node-b", null));
        pods.remove("b");

        assertThat(pods.podsOnNode("node-a").toCompletableFuture().join()).isEmpty();
        assertThat(pods.podsOnNode("node-b").toCompletableFuture().join()).extracting(MonitoredPod::uid)
                .containsExactly("a");
    }

    @Test
    void failsEveryLookupWhileBroken() {
        InMemoryPodDirectory pods = new InMemoryPodDirectory().put(pod("a", "node-a", "node-a"));
        pods.failWith(new IllegalStateException("API server unreachable"));

        assertThatThrownBy(() -> pods.podsOnNode("node-a").toCompletableFuture().join())
                .isInstanceOf(CompletionException.class).hasMessageContaining("API server unreachable");

        pods.failWith(null);
        assertThat(pods.podsAssignedTo("node-a").toCompletableFuture().join()).hasSize(1);
    }

    @Test
    void anEmptyNodeNameMatchesNothing() {
        MonitoredPod unscheduled = pod("a", "", null);
        assertThat(unscheduled.scheduledOn("")).isFalse();
    }
}
