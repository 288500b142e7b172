package io.vgpu.gateway.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.accounting.PodObservation;
import io.vgpu.gateway.core.accounting.PodTracker;
import io.vgpu.gateway.core.filter.Candidate;
import io.vgpu.gateway.core.filter.FilterAnnotations;
import io.vgpu.gateway.core.filter.FilterConfig;
import io.vgpu.gateway.core.filter.FilterDecider;
import io.vgpu.gateway.core.filter.FilterDecision;
import io.vgpu.gateway.core.quota.QuotaBook;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.extender.ExtenderFilterResult;
import io.vgpu.gateway.extender.FilterResponses;
import io.vgpu.gateway.scheduling.DecisionFailure;
import io.vgpu.gateway.scheduling.FilterOutcome;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.model.DeviceUsage;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.NodeView;
import io.vgpu.state.model.UsageAccounting;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code filter_e2e.json}: the cluster is seeded the way the gateway seeds it (node register
 * annotations, existing pods' {@code vgpu-node} + {@code vgpu-devices-allocated} through the pod
 * tracker), then the filter decision runs and is mapped to the wire response and the pod patch.
 */
public final class FilterE2eVectors implements VectorFamily {

    private static final long NOW = 1_724_220_039L;

    @Override
    public List<String> check(JsonNode defaults, JsonNode c) {
        JsonNode in = c.path("input");
        JsonNode expect = c.path("expect");
        JsonNode cfg = VectorJson.merged(defaults.path("config"), in.path("config"));
        NvidiaConfig nvidia = AdmissionJson.nvidiaConfig(cfg);
        FilterDecider decider = new FilterDecider(new FilterConfig(nvidia,
                cfg.path("node_scheduler_policy").asText("binpack"),
                cfg.path("default_gpu_scheduler_policy").asText("spread")));
        QuotaBook quotas = new QuotaBook(nvidia.resourceMemoryName(), nvidia.resourceCoreName(),
                nvidia.effectiveMemoryFactor());
        PodTracker tracker = new PodTracker(quotas);
        int n = 0;
        for (JsonNode p : in.path("cluster").path("pods")) {
            tracker.onAdd(new PodObservation("existing-" + n++, VectorJson.text(p, "namespace"),
                    VectorJson.text(p, "name"), "Running", false, VectorJson.stringMap(p.get("annotations")), 0, false));
        }
        Map<String, Map<String, String>> nodeAnnotations = new LinkedHashMap<>();
        in.path("cluster").path("nodes").fields().forEachRemaining(e ->
                nodeAnnotations.put(e.getKey(), VectorJson.stringMap(e.getValue().get("annotations"))));
        PodSpec pod = VectorJson.pod(in.path("pod"));

        Mismatches m = new Mismatches();
        JsonNode args = in.path("args");
        ExtenderFilterResult result;
        FilterDecision decision;
        if (args.has("Nodes") && !args.get("Nodes").isNull()) {
            Map<String, Map<String, String>> requested = new LinkedHashMap<>();
            Map<String, JsonNode> objects = new LinkedHashMap<>();
            for (JsonNode name : args.get("Nodes")) {
                requested.put(name.asText(), nodeAnnotations.getOrDefault(name.asText(), Map.of()));
                objects.put(name.asText(), nodeObject(name.asText(), requested.get(name.asText())));
            }
            decision = decider.decideSimulation(pod, requested);
            result = FilterResponses.simulationMode(decision, objects);
        } else {
            List<String> names = new ArrayList<>();
            args.path("NodeNames").forEach(x -> names.add(x.asText()));
            Map<String, NodeView> views = new HashMap<>();
            nodeAnnotations.forEach((name, ann) -> {
                NodeView idle = FilterDecider.idleView(name, ann);
                if (idle != null) {
                    List<DeviceUsage> usage = UsageAccounting.nodeUsage(
                            idle.devices().stream().map(FilterE2eVectors::registered).toList(), tracker.grantsOn(name));
                    views.put(name, new NodeView(name, usage, idle.annotations(), idle.pairScores()));
                }
            });
            decision = decider.decide(pod, args.path("NodeNames").isNull() ? null : names, views::get, quotas);
            result = FilterResponses.cacheMode(outcome(decision), names);
        }

        JsonNode actual = VectorJson.MAPPER.valueToTree(result);
        if (actual.path("Nodes").isObject()) {
            ArrayNode names = VectorJson.MAPPER.createArrayNode();
            actual.path("Nodes").path("items").forEach(item -> names.add(item.path("metadata").path("name").asText()));
            ((ObjectNode) actual).set("Nodes", names);
        }
        m.expectJson("response", expect.path("response"), actual);
        if (expect.has("pod_patch")) {
            checkPatch(expect, decision, m);
        }
        return m.list();
    }

    private static void checkPatch(JsonNode expect, FilterDecision decision, Mismatches m) {
        if (!(decision instanceof FilterDecision.Fits fits)) {
            m.fail("expected a pod patch but the decision was " + decision);
            return;
        }
        Candidate best = fits.best();
        Map<String, String> annotations = FilterAnnotations.annotations(best, NOW);
        ObjectNode patch = VectorJson.MAPPER.createObjectNode();
        ObjectNode ann = patch.putObject("annotations");
        annotations.forEach(ann::put);
        ObjectNode labels = patch.putObject("labels");
        FilterAnnotations.labels(best).forEach(labels::put);
        ObjectNode want = expect.path("pod_patch").deepCopy();
        if ("<unix seconds>".equals(want.path("annotations").path(HamiAnnotations.VGPU_TIME).asText())) {
            ((ObjectNode) want.get("annotations")).put(HamiAnnotations.VGPU_TIME, Long.toString(NOW));
        }
        m.expectJson("pod_patch", want, patch);
        String first = firstDevice(best);
        List<String> allowed = new ArrayList<>();
        expect.path("first_device_in").forEach(x -> allowed.add(x.asText()));
        if (!allowed.isEmpty() && !allowed.contains(first)) {
            m.fail("first device " + first + " not in " + allowed);
        }
    }

    private static String firstDevice(Candidate c) {
        return c.allocation().containers().stream().filter(l -> !l.isEmpty()).findFirst()
                .map(l -> l.get(0).uuid()).orElse(null);
    }

    private static GpuDevice registered(DeviceUsage d) {
        return new GpuDevice(d.id(), d.index(), d.count(), d.totalmem(), d.totalcore(), d.type(),
                d.numa(), d.mode(), d.migProfiles(), d.health());
    }

    private static JsonNode nodeObject(String name, Map<String, String> annotations) {
        ObjectNode node = VectorJson.MAPPER.createObjectNode();
        ObjectNode meta = node.putObject("metadata");
        meta.put("name", name);
        ObjectNode ann = meta.putObject("annotations");
        annotations.forEach(ann::put);
        return node;
    }

    /** What FilterService makes of a decision when the best node's reservation and annotation succeed. */
    private static FilterOutcome outcome(FilterDecision decision) {
        if (decision instanceof FilterDecision.Fits f) {
            return new FilterOutcome.Placed(f.best().node(), 0);
        }
        if (decision instanceof FilterDecision.NoFit n) {
            return new FilterOutcome.NoFit(n.rejected(), DecisionFailure.NO_FIT, 0);
        }
        return decision instanceof FilterDecision.Failed f
                ? new FilterOutcome.Failed(f.message(), DecisionFailure.INVALID_REQUEST, 0)
                : new FilterOutcome.PassThrough();
    }
}
