package io.vgpu.gateway.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.gateway.core.fit.ScoringWeights;
import io.vgpu.gateway.core.quota.QuotaGate;
import io.vgpu.gateway.core.score.NodeDevices;
import io.vgpu.gateway.core.score.NodeScore;
import io.vgpu.gateway.core.score.NodeScorer;
import io.vgpu.gateway.core.score.NodeVerdict;
import io.vgpu.gateway.core.score.PodDemand;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.ContainerRequest;
import io.vgpu.state.model.Vendor;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Kind {@code calc_score}: scores one pod on every node of the case ({@code scoreNode} per node), then
 * checks node scores, allocations, failure reasons and the node the extender would return (null = tie).
 */
public final class CalcScoreVectors implements VectorFamily {

    @Override
    public List<String> check(JsonNode defaults, JsonNode testCase) {
        JsonNode in = testCase.path("input");
        JsonNode expect = testCase.path("expect");
        JsonNode config = VectorJson.merged(defaults.get("config"), in.get("config"));
        JsonNode pod = in.path("pod");
        Map<String, String> annotations = VectorJson.stringMap(pod.get("annotations"));
        Mismatches m = new Mismatches();

        ScoringWeights.Parsed weights = ScoringWeights.fromPod(annotations);
        if (!weights.ok() || expect.has("error")) {
            m.expect("error", expect.has("error") ? expect.path("error").asText() : null, weights.error());
            return m.list();
        }

        List<ContainerRequest> requests = new ArrayList<>();
        in.path("requests").forEach(r -> requests.add(request(r)));
        int initCount = pod.path("init_containers").asInt(0);
        String namespace = pod.path("namespace").asText("default");
        QuotaGate quota = FitVectorSupport.quota(in.get("quota"), in.path("memory_factor").asInt(1), namespace);
        String nodePolicy = annotations.getOrDefault(HamiAnnotations.NODE_SCHEDULER_POLICY,
                VectorJson.text(config, "node_scheduler_policy"));

        Map<String, NodeVerdict.Fits> fits = new LinkedHashMap<>();
        Map<String, String> failed = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> nodes = in.path("nodes").fields();
        while (nodes.hasNext()) {
            Map.Entry<String, JsonNode> node = nodes.next();
            JsonNode n = node.getValue();
            String gpuPolicy = n.hasNonNull("gpu_policy") ? VectorJson.text(n, "gpu_policy")
                    : VectorJson.text(config, "default_gpu_scheduler_policy");
            PodDemand demand = new PodDemand(requests, initCount, annotations,
                    namespace, gpuPolicy, n.path("numa_bind").asBoolean(false),
                    weights.weights(), quota);
            NodeVerdict verdict = new NodeScorer(demand).score(new NodeDevices(node.getKey(),
                    VectorJson.deviceUsages(n.get("devices"), defaults.get("device_fields")),
                    FitVectorSupport.pairScores(n.get("pair_scores")), VectorJson.stringMap(n.get("annotations"))));
            if (verdict instanceof NodeVerdict.Fits f) {
                fits.put(node.getKey(), f);
            } else {
                failed.put(node.getKey(), ((NodeVerdict.Unschedulable) verdict).rejection().hamiText());
            }
        }

        checkFitNodes(expect.path("fit_nodes"), fits, m);
        m.expect("failed_nodes", VectorJson.stringMap(expect.get("failed_nodes")), failed);
        if (expect.has("selected_node")) {
            String selected = null;
            if (!fits.isEmpty()) {
                List<NodeScore.Scored> scored = new ArrayList<>();
                fits.forEach((name, f) -> scored.add(new NodeScore.Scored(name, f.score())));
                NodeScore.Choice choice = NodeScore.choose(scored, nodePolicy);
                selected = choice.isTie() ? null : choice.node();
            }
            JsonNode want = expect.get("selected_node");
            m.expect("selected_node", want.isNull() ? null : want.asText(), selected);
        }
        return m.list();
    }

    private static void checkFitNodes(JsonNode expected, Map<String, NodeVerdict.Fits> fits, Mismatches m) {
        List<String> wantNames = new ArrayList<>();
        expected.fieldNames().forEachRemaining(wantNames::add);
        m.expect("fit node names", wantNames.stream().sorted().toList(), fits.keySet().stream().sorted().toList());
        for (String name : wantNames) {
            NodeVerdict.Fits actual = fits.get(name);
            if (actual == null) {
                continue;
            }
            JsonNode want = expected.get(name);
            if (want.has("score")) {
                m.expect(name + ".score", (float) want.path("score").asDouble(), actual.score());
            }
            JsonNode wantContainers = want.path("devices").path(Vendor.NVIDIA);
            if (!wantContainers.isArray()) {
                continue;
            }
            List<List<ContainerDevice>> allocation = actual.allocation();
            if (wantContainers.size() != allocation.size()) {
                m.fail(name + ".devices: expected " + wantContainers + " but was "
                        + FitVectorSupport.allocationJson(allocation));
                continue;
            }
            for (int c = 0; c < allocation.size(); c++) {
                FitVectorSupport.expectDevices(name + ".devices[" + c + "]", wantContainers.get(c), allocation.get(c),
                        false, m);
            }
        }
    }

    /** {@code {"NVIDIA": request}} → the request; {@code {}} → a request for no GPU. */
    private static ContainerRequest request(JsonNode perVendor) {
        Iterator<JsonNode> values = perVendor.elements();
        if (!values.hasNext()) {
            return new ContainerRequest(0, Vendor.NVIDIA, 0, ContainerRequest.NO_PERCENTAGE, 0);
        }
        return VectorJson.request(values.next());
    }
}
