package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.deviceplugin.core.allocate.AllocateResult;
import io.vgpu.deviceplugin.core.allocate.ContainerResponse;
import io.vgpu.deviceplugin.core.allocate.FinishReport;
import io.vgpu.deviceplugin.core.allocate.MountSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.regex.Pattern;

/**
 * {@code allocate}: one kubelet Allocate end to end through the plugin's allocation service, against
 * a fake API server (the pod found through the node lock) and a fake host file system.
 */
public final class AllocateVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        Checks c = new Checks();
        JsonNode in = vector.path("input");
        JsonNode expected = vector.path("expected");
        AllocateFixture fx = new AllocateFixture(in.path("config"), in.path("pod"),
                in.hasNonNull("pending_pod_lookup_error") ? in.get("pending_pod_lookup_error").asText() : null);
        if (in.hasNonNull("erase_patch_error")) {
            fx.cluster.failPodPatchesOf("hami.io/vgpu-devices-to-allocate", in.get("erase_patch_error").asText());
        }
        AllocateResult result = fx.service.allocate(AllocateFixture.requests(in.path("container_requests"))).toCompletableFuture().join();
        boolean ok = result instanceof AllocateResult.Allocated;
        c.expect("ok", expected.path("ok").asBoolean(), ok);
        if (expected.has("error_contains")) {
            c.expectError("error", expected.get("error_contains").asText(),
                    result instanceof AllocateResult.Rejected r ? r.message() : null);
        }
        if (ok && expected.has("container_responses")) {
            responses(c, expected.get("container_responses"), ((AllocateResult.Allocated) result).responses());
        }
        List<Map<String, String>> wantPatches = new ArrayList<>();
        expected.path("pod_annotation_patches").forEach(p -> wantPatches.add(NodeJson.stringMap(p)));
        c.expect("pod_annotation_patches", wantPatches, fx.cluster.podPatches());
        FinishReport finish = result instanceof AllocateResult.Allocated a ? a.finish() : ((AllocateResult.Rejected) result).finish();
        c.expect("node_lock_release_attempted", expected.path("node_lock_release_attempted").asBoolean(),
                finish != null && finish.releaseAttempted());
        c.expect("host_dirs_recreated", NodeJson.strings(expected.get("host_dirs_recreated")), fx.host.recreated());
        c.expect("host_dirs_ensured", NodeJson.strings(expected.get("host_dirs_ensured")), fx.host.ensured());
        return c.list();
    }

    private static void responses(Checks c, JsonNode want, List<ContainerResponse> got) {
        c.expect("container_responses.size", want.size(), got.size());
        for (int i = 0; i < Math.min(want.size(), got.size()); i++) {
            JsonNode w = want.get(i);
            ContainerResponse r = got.get(i);
            SortedMap<String, String> envs = r.envs();
            Map<String, String> patterns = NodeJson.stringMap(w.get("env_patterns"));
            for (Map.Entry<String, String> p : patterns.entrySet()) {
                String value = envs.remove(p.getKey());
                if (value == null || !Pattern.compile(p.getValue()).matcher(value).find()) {
                    c.fail("responses[" + i + "].envs." + p.getKey() + ": <" + value + "> does not match " + p.getValue());
                }
            }
            c.expect("responses[" + i + "].envs", NodeJson.stringMap(w.path("envs")), envs);
            List<MountSpec> mounts = new ArrayList<>();
            w.path("mounts").forEach(m -> mounts.add(new MountSpec(m.path("container_path").asText(), m.path("host_path").asText(),
                    m.path("read_only").asBoolean())));
            c.expect("responses[" + i + "].mounts", mounts, r.mounts());
        }
    }
}
