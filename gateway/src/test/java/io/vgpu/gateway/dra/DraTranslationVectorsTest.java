package io.vgpu.gateway.dra;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vgpu.gateway.conformance.AdmissionJson;
import io.vgpu.gateway.conformance.JsonPatchApplier;
import io.vgpu.gateway.conformance.VectorJson;
import io.vgpu.gateway.core.dra.ClaimTemplate;
import io.vgpu.gateway.core.dra.DraConfig;
import io.vgpu.gateway.core.port.QuotaTickets;
import io.vgpu.gateway.core.quota.QuotaBook;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.core.webhook.PatchOp;
import io.vgpu.gateway.core.webhook.WebhookConfig;
import io.vgpu.gateway.core.webhook.WebhookDecider;
import io.vgpu.gateway.webhook.DraAdmission;
import io.vgpu.gateway.webhook.FailurePolicy;
import io.vgpu.gateway.webhook.WebhookReply;
import io.vgpu.gateway.webhook.WebhookService;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs {@code src/test/resources/dra/translation.json} (the DRA translation vectors, conformance style) through the
 * shipped webhook path: an AdmissionReview body into {@link WebhookService#admit} with a {@link DraAdmission} over an
 * in-memory template store and quota tickets; the reply's JSON Patch applied to the pod with a strict RFC 6902
 * applier. The expected template name is derived here from the expected spec (SHA-256 of its compact JSON), so the
 * naming rule is checked, not copied.
 */
class DraTranslationVectorsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String PLACEHOLDER = "TNAME";

    @TestFactory
    Stream<DynamicTest> vectors() throws IOException {
        JsonNode doc;
        try (InputStream in = getClass().getResourceAsStream("/dra/translation.json")) {
            doc = MAPPER.readTree(in);
        }
        JsonNode defaults = doc.get("defaults");
        List<DynamicTest> tests = new ArrayList<>();
        doc.get("cases").forEach(c -> tests.add(DynamicTest.dynamicTest(c.get("id").asText() + " "
                + c.get("description").asText(), () -> run(defaults, c))));
        return tests.stream();
    }

    private static void run(JsonNode defaults, JsonNode c) throws Exception {
        JsonNode input = c.get("input");
        JsonNode expect = c.get("expect");
        NvidiaConfig nvidia = AdmissionJson.nvidiaConfig(VectorJson.merged(defaults.get("nvidia_config"),
                input.path("config").get("nvidia")));
        ObjectNode draJson = VectorJson.merged(defaults.get("dra"), input.get("dra"));
        DraConfig dra = new DraConfig(draJson.get("deviceClassName").asText(), draJson.get("draByDefault").asBoolean());
        JsonNode sizesJson = input.has("card_sizes") ? input.get("card_sizes") : defaults.get("card_sizes");
        TreeSet<Long> sizes = new TreeSet<>();
        sizesJson.forEach(s -> sizes.add(s.asLong()));
        JsonNode nsLabels = defaults.get("namespace_labels");
        JsonNode quota = input.has("quota") ? input.get("quota") : defaults.get("quota");
        FakeQuotaTickets tickets = new FakeQuotaTickets(outcome(quota));
        MemoryClaimTemplates store = new MemoryClaimTemplates();
        FailurePolicy policy = FailurePolicy.of(input.has("failure_policy") ? input.get("failure_policy").asText()
                : defaults.get("failure_policy").asText());
        boolean dryRun = input.path("dry_run").asBoolean(defaults.get("dry_run").asBoolean());
        JsonNode pod = input.get("pod");
        String namespace = pod.path("metadata").path("namespace").asText();

        String expectedName = null;
        if (expect.has("template")) {
            JsonNode spec = expect.get("template").get("spec");
            expectedName = "vgpu-" + sha256(MAPPER.writeValueAsString(spec)).substring(0, 16);
            ClaimTemplate same = new ClaimTemplate(namespace, expectedName, sha256(MAPPER.writeValueAsString(spec)),
                    Map.of());
            if (input.path("existing_template").asBoolean()) {
                store.preload(same);
            }
            if (input.path("conflicting_template").asBoolean()) {
                store.preload(new ClaimTemplate(namespace, expectedName, "0".repeat(64), Map.of()));
            }
        }
        WebhookConfig webhook = WebhookConfig.single(defaults.path("webhook").path("scheduler_name").asText(), true,
                nvidia);
        QuotaBook book = new QuotaBook(nvidia.resourceMemoryName(), nvidia.resourceCoreName(), 1);
        DraAdmission admission = new DraAdmission(nvidia, dra,
                ns -> Optional.ofNullable(nsLabels.get(ns)).map(l -> MAPPER.convertValue(l, Map.class)),
                () -> sizes, store, tickets);
        WebhookService service = new WebhookService(new WebhookDecider(webhook), book, policy, 1 << 20, admission);
        byte[] body = review(pod, dryRun);

        WebhookReply reply = service.admit(body).toCompletableFuture().getNow(null);
        assertNotNull(reply, "the in-memory collaborators complete at once");
        if (expect.path("hami_path").asBoolean()) {
            WebhookService hami = new WebhookService(new WebhookDecider(webhook), book, policy, 1 << 20);
            assertEquals(new String(hami.review(body).body(), StandardCharsets.UTF_8),
                    new String(reply.body(), StandardCharsets.UTF_8), "byte for byte the HAMi path's answer");
        } else {
            JsonNode response = MAPPER.readTree(reply.body()).get("response");
            assertEquals(expect.get("allowed").asBoolean(), response.get("allowed").asBoolean(), "allowed");
            JsonNode status = expect.get("status").deepCopy();
            if ("CONFLICT".equals(status.path("message").asText())) {
                ((ObjectNode) status).put("message", MemoryClaimTemplates.CONFLICT);
            }
            assertEquals(status, response.get("status"), "status");
            assertEquals(expect.has("warnings") ? expect.get("warnings") : null, response.get("warnings"), "warnings");
            if (expect.has("pod_after")) {
                JsonNode patched = JsonPatchApplier.apply(pod.deepCopy(), ops(response));
                String want = MAPPER.writeValueAsString(expect.get("pod_after")).replace(PLACEHOLDER,
                        expectedName == null ? PLACEHOLDER : expectedName);
                assertEquals(MAPPER.readTree(want), patched, "the patched pod");
            } else {
                assertFalse(response.has("patch"), "no patch on a refusal");
            }
        }
        List<ClaimTemplate> created = store.created();
        if (expect.path("created").asBoolean()) {
            assertEquals(1, created.size(), "one template created");
            ClaimTemplate t = created.get(0);
            JsonNode template = expect.get("template");
            assertEquals(expectedName, t.name(), "the template is named by its content");
            assertEquals(template.has("namespace") ? template.get("namespace").asText() : namespace, t.namespace());
            JsonNode object = MAPPER.readTree(t.objectJson());
            assertEquals(template.get("spec"), object.get("spec"), "the template spec");
            assertEquals(ClaimTemplate.MANAGER, object.path("metadata").path("labels").path(ClaimTemplate.MANAGED_BY)
                    .asText(), "labelled for the sweeper");
        } else {
            assertTrue(created.isEmpty(), "no template created: " + created);
        }
        List<FakeQuotaTickets.Call> calls = new ArrayList<>();
        expect.get("quota_calls").forEach(q -> calls.add(new FakeQuotaTickets.Call(q.get("namespace").asText(),
                q.get("memoryMiB").asLong(), q.get("cores").asLong())));
        assertEquals(calls, tickets.calls(), "quota tickets issued");
    }

    private static QuotaTickets.Outcome outcome(JsonNode quota) {
        String value = quota.path("value").asText();
        return switch (quota.get("outcome").asText()) {
            case "granted" -> new QuotaTickets.Outcome.Granted(value);
            case "unlimited" -> new QuotaTickets.Outcome.Unlimited();
            case "refused" -> new QuotaTickets.Outcome.Refused(value);
            case "unavailable" -> new QuotaTickets.Outcome.Unavailable(value);
            default -> throw new IllegalArgumentException("quota outcome " + quota);
        };
    }

    private static byte[] review(JsonNode pod, boolean dryRun) throws IOException {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("apiVersion", "admission.k8s.io/v1");
        root.put("kind", "AdmissionReview");
        ObjectNode request = root.putObject("request");
        request.put("uid", "11111111-2222-3333-4444-555555555555");
        request.putObject("kind").put("group", "").put("version", "v1").put("kind", "Pod");
        request.put("namespace", pod.path("metadata").path("namespace").asText());
        request.put("operation", "CREATE");
        request.put("dryRun", dryRun);
        request.set("object", pod);
        return MAPPER.writeValueAsBytes(root);
    }

    private static List<PatchOp> ops(JsonNode response) throws IOException {
        List<PatchOp> out = new ArrayList<>();
        if (!response.has("patch")) {
            return out;
        }
        JsonNode patch = MAPPER.readTree(Base64.getDecoder().decode(response.get("patch").asText()));
        for (JsonNode op : patch) {
            PatchOp.Op kind = PatchOp.Op.valueOf(op.get("op").asText().toUpperCase(java.util.Locale.ROOT));
            Object value = kind == PatchOp.Op.REMOVE ? null : MAPPER.convertValue(op.get("value"), Object.class);
            out.add(new PatchOp(kind, op.get("path").asText(), value));
        }
        return out;
    }

    private static String sha256(String text) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(text.getBytes(StandardCharsets.UTF_8)));
    }
}
