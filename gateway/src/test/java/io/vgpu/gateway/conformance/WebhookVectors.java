package io.vgpu.gateway.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vgpu.gateway.core.Container;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.core.webhook.AdmissionDecision;
import io.vgpu.gateway.core.webhook.ContainerMutation;
import io.vgpu.gateway.core.webhook.NvidiaMutation;
import io.vgpu.gateway.core.webhook.WebhookConfig;
import io.vgpu.gateway.core.webhook.WebhookDecider;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code webhook.json}: {@code admission} (the whole decision, spec §5.3) and
 * {@code mutate_container} (the NVIDIA mutation, §5.4). For an allowed pod, the decision's JSON Patch
 * is applied with a strict RFC 6902 applier to the Pod JSON of {@code input.pod}; the result must be
 * the Pod JSON of {@code expect.pod_after} and the decision's own mutated pod.
 */
public final class WebhookVectors implements VectorFamily {

    @Override
    public List<String> check(JsonNode defaults, JsonNode testCase) {
        return switch (testCase.path("op").asText()) {
            case "admission" -> admission(defaults, testCase);
            case "mutate_container" -> mutateContainer(defaults, testCase);
            default -> List.of("unknown op " + testCase.path("op"));
        };
    }

    private static NvidiaConfig nvidia(JsonNode defaults, JsonNode input) {
        return AdmissionJson.nvidiaConfig(VectorJson.merged(defaults.get("nvidia_config"),
                input.path("config").get("nvidia")));
    }

    private static List<String> admission(JsonNode defaults, JsonNode testCase) {
        JsonNode input = testCase.path("input");
        JsonNode expect = testCase.path("expect");
        NvidiaConfig nvidia = nvidia(defaults, input);
        ObjectNode cfg = VectorJson.merged(defaults.get("config"), input.get("config"));
        List<String> names = new ArrayList<>();
        if (cfg.has("scheduler_names")) {
            cfg.get("scheduler_names").forEach(n -> names.add(n.asText()));
        } else if (!VectorJson.text(cfg, "scheduler_name").isEmpty()) {
            names.add(VectorJson.text(cfg, "scheduler_name"));
        }
        WebhookConfig config = new WebhookConfig(names, cfg.path("force_overwrite_default_scheduler").asBoolean(true),
                nvidia);
        PodSpec pod = VectorJson.pod(input.path("pod"));
        AdmissionDecision decision = new WebhookDecider(config).decide(pod,
                AdmissionJson.quotaBook(input.get("quota"), nvidia, nvidia.memoryFactor()));

        Mismatches m = new Mismatches();
        m.expect("allowed", expect.path("allowed").asBoolean(), decision instanceof AdmissionDecision.Allowed);
        m.expectJson("status", expect.get("status"), status(decision));
        if (decision instanceof AdmissionDecision.Allowed allowed) {
            if (expect.has("patch") && expect.get("patch").isNull() && !allowed.patch().isEmpty()) {
                m.fail("patch: expected none but was " + allowed.patch());
            }
            if (expect.has("pod_after")) {
                checkPatch(m, input.path("pod"), expect.get("pod_after"), allowed);
            }
        }
        return m.list();
    }

    private static void checkPatch(Mismatches m, JsonNode podBefore, JsonNode podAfter,
                                   AdmissionDecision.Allowed allowed) {
        JsonNode patched;
        try {
            patched = JsonPatchApplier.apply(KubePodJson.toKube(podBefore), allowed.patch());
        } catch (IllegalArgumentException e) {
            m.fail("patch does not apply: " + e.getMessage());
            return;
        }
        m.expectJson("patched pod JSON", KubePodJson.toKube(podAfter), patched);
        m.expect("patched pod", VectorJson.pod(podAfter), KubePodJson.fromKube(patched));
        m.expect("decision podAfter", VectorJson.pod(podAfter), allowed.podAfter());
    }

    private static JsonNode status(AdmissionDecision decision) {
        ObjectNode s = VectorJson.MAPPER.createObjectNode();
        s.put("code", decision.code());
        if (decision instanceof AdmissionDecision.Denied denied) {
            s.put("reason", denied.reason());
        }
        if (!decision.message().isEmpty()) {
            s.put("message", decision.message());
        }
        return s;
    }

    private static List<String> mutateContainer(JsonNode defaults, JsonNode testCase) {
        JsonNode input = testCase.path("input");
        JsonNode expect = testCase.path("expect");
        JsonNode rc = input.path("pod").get("runtimeClassName");
        String runtimeClassName = rc == null || rc.isNull() ? null : rc.asText();
        ContainerMutation result = new NvidiaMutation(nvidia(defaults, input))
                .mutate(VectorJson.container(input.path("container")), runtimeClassName);

        Mismatches m = new Mismatches();
        m.expect("has_resource", expect.path("has_resource").asBoolean(), result.hasResource());
        if (expect.has("error")) {
            JsonNode err = expect.get("error");
            m.expect("error", err.isNull() ? null : err.asText(),
                    result instanceof ContainerMutation.Rejected r ? r.message() : null);
        }
        if (result instanceof ContainerMutation.Mutated mutated) {
            if (expect.has("container_after")) {
                Container expected = VectorJson.container(expect.get("container_after"));
                m.expect("container_after", expected, mutated.after());
            }
            if (expect.has("pod_runtimeClassName")) {
                JsonNode want = expect.get("pod_runtimeClassName");
                m.expect("pod_runtimeClassName", want.isNull() ? null : want.asText(), mutated.runtimeClassName());
            }
        } else if (expect.has("container_after") || expect.has("pod_runtimeClassName")) {
            m.fail("expected a mutated container but was " + result);
        }
        return m.list();
    }
}
