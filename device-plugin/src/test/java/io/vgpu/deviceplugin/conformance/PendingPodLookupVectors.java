package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.deviceplugin.core.pending.PendingPodFinder;
import io.vgpu.deviceplugin.core.pending.PodLookup;
import io.vgpu.deviceplugin.core.cluster.PodView;
import io.vgpu.deviceplugin.testing.FakeCluster;

import java.util.List;

/** {@code pending_pod_lookup}: which pod an Allocate is charged to. */
public final class PendingPodLookupVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        Checks c = new Checks();
        JsonNode in = vector.path("input");
        JsonNode expected = vector.path("expected");
        String node = in.path("node").asText();
        FakeCluster cluster = new FakeCluster().node(node, NodeJson.stringMap(in.path("node_annotations")));
        String lock = NodeJson.stringMap(in.path("node_annotations")).getOrDefault("hami.io/mutex.lock", "");
        String lockNamespace = lock.split(",", -1).length == 3 ? lock.split(",", -1)[1] : "default";
        for (JsonNode p : in.path("pods_in_list_order")) {
            cluster.pod(new PodView(p.path("namespace").asText(lockNamespace), p.path("name").asText(), p.path("name").asText() + "-uid",
                    p.path("phase").asText(), p.path("spec_node_name").asText(), NodeJson.stringMap(p.path("annotations")),
                    List.of(), List.of()));
        }
        PodLookup lookup = new PendingPodFinder(cluster).find(node).toCompletableFuture().join();
        if (expected.has("error")) {
            return c.expectError("error", expected.get("error").asText(),
                    lookup instanceof PodLookup.Missing missing ? missing.message() : null).list();
        }
        if (lookup instanceof PodLookup.Missing missing) {
            return c.fail("unexpected error: " + missing.message()).list();
        }
        return c.expect("pod", expected.path("pod").asText(), ((PodLookup.Found) lookup).pod().name()).list();
    }
}
