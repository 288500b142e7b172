package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.deviceplugin.core.pending.LockReleaseResult;
import io.vgpu.deviceplugin.core.pending.NodeLockReleaser;
import io.vgpu.deviceplugin.core.pending.PodRef;
import io.vgpu.deviceplugin.testing.FakeCluster;
import io.vgpu.state.codec.HamiAnnotations;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** {@code nodelock_release}: the plugin's owner-checked release against a node. */
public final class NodelockReleaseVectors implements NodeVectorFamily {

    private static final String NODE = "node-1";

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        Checks c = new Checks();
        JsonNode in = vector.path("input");
        JsonNode expected = vector.path("expected");
        FakeCluster cluster = new FakeCluster();
        if (in.path("node_exists").asBoolean(true)) {
            Map<String, String> annotations = new HashMap<>();
            if (in.hasNonNull("current_lock")) {
                annotations.put(HamiAnnotations.NODE_LOCK, in.get("current_lock").asText());
            }
            cluster.node(NODE, annotations);
        }
        LockReleaseResult result = new NodeLockReleaser(cluster, NodeLockReleaser.DEFAULT_ATTEMPTS, Duration.ZERO)
                .release(NODE, new PodRef(in.path("releasing_pod_namespace").asText(), in.path("releasing_pod_name").asText()),
                        in.path("skip_owner_check").asBoolean())
                .toCompletableFuture().join();
        c.expect("error", expected.path("error").asBoolean(), result instanceof LockReleaseResult.Failed);
        c.expect("lock_removed", expected.path("lock_removed").asBoolean(), result.removed());
        c.expect("lock still present", !expected.path("lock_removed").asBoolean() && in.hasNonNull("current_lock"),
                cluster.nodeAnnotations(NODE).containsKey(HamiAnnotations.NODE_LOCK));
        return c.list();
    }
}
