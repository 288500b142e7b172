package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.deviceplugin.core.allocate.AllocationFinisher;
import io.vgpu.deviceplugin.core.allocate.FinishReport;
import io.vgpu.deviceplugin.core.pending.NodeLockReleaser;
import io.vgpu.deviceplugin.core.pending.PodRef;
import io.vgpu.deviceplugin.core.cluster.PodView;
import io.vgpu.deviceplugin.testing.FakeCluster;
import io.vgpu.state.codec.HamiAnnotations;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** {@code allocation_finish}: bind-phase and lock release after an Allocate. */
public final class AllocationFinishVectors implements NodeVectorFamily {

    private static final String NODE = "node-1";

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        Checks c = new Checks();
        JsonNode in = vector.path("input");
        JsonNode expected = vector.path("expected");
        PodRef pod = ref(in.path("pod").asText("default/testpod"));
        PodRef owner = ref(in.path("node_lock_owner").asText(pod.toString()));
        FakeCluster cluster = new FakeCluster().node(NODE,
                Map.of(HamiAnnotations.NODE_LOCK, "2026-08-01T06:00:00Z," + owner.namespace() + "," + owner.name()));
        if (in.path("pod_exists").asBoolean(true)) {
            Map<String, String> annotations = new HashMap<>();
            if (in.has("refreshed_to_allocate_annotation")) {
                annotations.put(HamiAnnotations.DEVICES_TO_ALLOCATE, in.get("refreshed_to_allocate_annotation").asText());
            }
            cluster.pod(new PodView(pod.namespace(), pod.name(), "uid", "Pending", NODE, annotations, List.of(), List.of()));
        }
        AllocationFinisher finisher = new AllocationFinisher(cluster, new NodeLockReleaser(cluster, 5, Duration.ZERO), NODE);
        FinishReport report = switch (in.path("outcome").asText()) {
            case "success" -> finisher.succeed(pod).toCompletableFuture().join();
            case "failed" -> finisher.fail(pod).toCompletableFuture().join();
            case "try_success" -> finisher.trySucceed(pod).toCompletableFuture().join();
            default -> null;
        };
        if (report == null) {
            return c.fail("unknown outcome " + in.path("outcome")).list();
        }
        c.expect("node_lock_removed", expected.path("node_lock_removed").asBoolean(), !cluster.lockRemovals().isEmpty());
        if (expected.has("pod_annotation_patch")) {
            c.expect("pod_annotation_patch", List.of(NodeJson.stringMap(expected.get("pod_annotation_patch"))), cluster.podPatches());
        }
        if (expected.has("pod_annotation_patch_error")) {
            c.expect("pod_annotation_patch_error", expected.get("pod_annotation_patch_error").asBoolean(), !report.patchError().isEmpty());
        }
        if (expected.has("bind_phase_patched")) {
            c.expect("bind_phase_patched", expected.get("bind_phase_patched").asBoolean(), !cluster.podPatches().isEmpty());
        }
        return c.list();
    }

    private static PodRef ref(String text) {
        int slash = text.indexOf('/');
        return new PodRef(text.substring(0, slash), text.substring(slash + 1));
    }
}
