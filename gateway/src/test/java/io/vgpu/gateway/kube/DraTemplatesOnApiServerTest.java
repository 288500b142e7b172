package io.vgpu.gateway.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.vgpu.gateway.core.dra.DraConfig;
import io.vgpu.gateway.core.port.QuotaTickets;
import io.vgpu.gateway.core.quota.QuotaBook;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.core.webhook.WebhookConfig;
import io.vgpu.gateway.core.webhook.WebhookDecider;
import io.vgpu.gateway.dra.FakeQuotaTickets;
import io.vgpu.gateway.webhook.DraAdmission;
import io.vgpu.gateway.webhook.FailurePolicy;
import io.vgpu.gateway.webhook.WebhookService;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

import static io.vgpu.gateway.kube.KubeFixtures.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The webhook's DRA path against the fabric8 mock API server (CRUD): two pods of one shape make one
 * ResourceClaimTemplate (the second admission meets AlreadyExists and succeeds), a dry run makes none, and a
 * template of that name with other content is an error the user reads.
 */
class DraTemplatesOnApiServerTest {

    static final ResourceDefinitionContext TEMPLATES = new ResourceDefinitionContext.Builder()
            .withGroup("resource.k8s.io").withVersion("v1").withPlural("resourceclaimtemplates")
            .withKind("ResourceClaimTemplate").withNamespaced(true).build();
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static MockApiServer server;
    private static KubernetesClient client;
    private static KubeApi api;
    private String ns;
    private WebhookService service;

    @BeforeAll
    static void startServer() {
        server = MockApiServer.start();
        client = server.client(KubeFixtures.TEST_CLIENT);
        api = new KubeApi(client, KubeFixtures.TEST_CLIENT);
    }

    @AfterAll
    static void stopServer() {
        api.close();
        client.close();
        server.close();
    }

    @BeforeEach
    void webhook(TestInfo test) {
        ns = KubeFixtures.nameOf(test);
        NvidiaConfig nvidia = NvidiaConfig.defaults();
        DraAdmission dra = new DraAdmission(nvidia, new DraConfig(DraConfig.DEFAULT_DEVICE_CLASS, true),
                namespace -> Optional.empty(), TreeSet::new, new KubeClaimTemplates(api, Clock.systemUTC()),
                new FakeQuotaTickets(new QuotaTickets.Outcome.Unlimited()));
        service = new WebhookService(new WebhookDecider(WebhookConfig.single("hami-scheduler", true, nvidia)),
                new QuotaBook(nvidia.resourceMemoryName(), nvidia.resourceCoreName(), 1), FailurePolicy.FAIL,
                1 << 20, dra);
    }

    @Test
    void twoPodsOfOneShapeMakeOneTemplateAndTheSecondMeetsAlreadyExists() {
        JsonNode first = admit(pod("a", "4096"), false);
        JsonNode second = admit(pod("b", "4096"), false);

        assertThat(first.path("allowed").asBoolean()).as(first.toString()).isTrue();
        assertThat(second.path("allowed").asBoolean()).as(second.toString()).isTrue();
        List<GenericKubernetesResource> stored = templates();
        assertThat(stored).hasSize(1);
        assertThat(server.requests("POST", KubeClaimTemplates.collection(ns))).hasSize(2);
        GenericKubernetesResource t = stored.get(0);
        assertThat(t.getMetadata().getName()).startsWith("vgpu-");
        assertThat(t.getMetadata().getLabels()).containsEntry("vgpu.io/component", "claim-template");
        assertThat(MAPPER.valueToTree(t.getAdditionalProperties().get("spec")).toString())
                .contains("\"memory\":\"4096Mi\"", "\"deviceClassName\":\"gpu.vgpu.io\"");
    }

    @Test
    void aDryRunMakesNoTemplate() {
        JsonNode reply = admit(pod("a", "2048"), true);

        assertThat(reply.path("allowed").asBoolean()).isTrue();
        assertThat(reply.has("patch")).isTrue();
        assertThat(templates()).isEmpty();
        assertThat(server.requests("POST", KubeClaimTemplates.collection(ns))).isEmpty();
    }

    @Test
    void aTemplateOfThatNameWithOtherContentIsAClearError() {
        JsonNode dry = admit(pod("a", "1024"), true);
        String name = templateNameIn(dry);
        client.genericKubernetesResources(TEMPLATES).inNamespace(ns).resource(new GenericKubernetesResource() {
            {
                setApiVersion("resource.k8s.io/v1");
                setKind("ResourceClaimTemplate");
                setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name).withNamespace(ns)
                        .build());
                setAdditionalProperty("spec", Map.of("spec", Map.of("devices", Map.of())));
            }
        }).create();

        JsonNode reply = admit(pod("b", "1024"), false);

        assertThat(reply.path("allowed").asBoolean()).isFalse();
        assertThat(reply.path("status").path("code").asInt()).isEqualTo(500);
        assertThat(reply.path("status").path("message").asText())
                .contains(ns + "/" + name, "exists with other content", "not made by the vgpu gateway");
    }

    private List<GenericKubernetesResource> templates() {
        return client.genericKubernetesResources(TEMPLATES).inNamespace(ns).list().getItems();
    }

    private JsonNode admit(ObjectNode pod, boolean dryRun) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("apiVersion", "admission.k8s.io/v1");
        root.put("kind", "AdmissionReview");
        ObjectNode request = root.putObject("request");
        request.put("uid", "uid-" + pod.path("metadata").path("name").asText());
        request.put("namespace", ns);
        request.put("dryRun", dryRun);
        request.set("object", pod);
        try {
            return MAPPER.readTree(await(service.admit(MAPPER.writeValueAsBytes(root))).body()).get("response");
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static String templateNameIn(JsonNode response) {
        try {
            JsonNode patch = MAPPER.readTree(java.util.Base64.getDecoder().decode(response.get("patch").asText()));
            for (JsonNode op : patch) {
                if (op.path("path").asText().equals("/spec/resourceClaims")) {
                    return op.path("value").get(0).path("resourceClaimTemplateName").asText();
                }
            }
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("no resourceClaims op in " + response);
    }

    private ObjectNode pod(String name, String memory) {
        ObjectNode pod = MAPPER.createObjectNode();
        pod.put("apiVersion", "v1").put("kind", "Pod");
        pod.putObject("metadata").put("name", name).put("namespace", ns);
        ObjectNode c = pod.putObject("spec").putArray("containers").addObject();
        c.put("name", "main");
        c.putObject("resources").putObject("limits").put("nvidia.com/gpu", "1").put("nvidia.com/gpumem", memory)
                .put("nvidia.com/gpucores", "20");
        return pod;
    }
}
