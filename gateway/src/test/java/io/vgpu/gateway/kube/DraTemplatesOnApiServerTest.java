package io.vgpu.gateway.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
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
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static io.vgpu.gateway.kube.KubeFixtures.finishOnWorker;
import static io.vgpu.gateway.kube.KubeFixtures.onWorker;
import static io.vgpu.gateway.testflow.TestFlow.step;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The webhook's DRA path against the fabric8 mock API server (CRUD): two pods of one shape make one
 * ResourceClaimTemplate (the second admission meets AlreadyExists and succeeds), a dry run makes none, and a
 * template of that name with other content is an error the user reads.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DraTemplatesOnApiServerTest {

    static final ResourceDefinitionContext TEMPLATES = new ResourceDefinitionContext.Builder()
            .withGroup("resource.k8s.io").withVersion("v1").withPlural("resourceclaimtemplates")
            .withKind("ResourceClaimTemplate").withNamespaced(true).build();
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static KubeFixtures.MockKube kube;
    private static MockApiServer server;
    private static KubernetesClient client;
    private static KubeApi api;
    private String ns;
    private WebhookService service;

    @BeforeAll
    static void startServer() {
        kube = KubeFixtures.mockKube();
        server = kube.server();
        client = kube.client();
        api = kube.api();
    }

    @AfterAll
    static void stopServer() {
        kube.close();
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
    void twoPodsOfOneShapeMakeOneTemplateAndTheSecondMeetsAlreadyExists(Vertx vertx, VertxTestContext ctx) {
        Future<List<JsonNode>> replies = admit(pod("a", "4096"), false)
                .compose(first -> admit(pod("b", "4096"), false).map(second -> List.of(first, second)));

        finishOnWorker(ctx, vertx, replies, r -> {
            JsonNode first = r.get(0);
            JsonNode second = r.get(1);
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
        });
    }

    @Test
    void aDryRunMakesNoTemplate(Vertx vertx, VertxTestContext ctx) {
        finishOnWorker(ctx, vertx, admit(pod("a", "2048"), true), reply -> {
            assertThat(reply.path("allowed").asBoolean()).isTrue();
            assertThat(reply.has("patch")).isTrue();
            assertThat(templates()).isEmpty();
            assertThat(server.requests("POST", KubeClaimTemplates.collection(ns))).isEmpty();
        });
    }

    @Test
    void aTemplateOfThatNameWithOtherContentIsAClearError(Vertx vertx, VertxTestContext ctx) {
        Future<String> name = admit(pod("a", "1024"), true).map(DraTemplatesOnApiServerTest::templateNameIn);
        Future<JsonNode> reply = name.compose(taken -> onWorker(vertx, () -> client
                        .genericKubernetesResources(TEMPLATES).inNamespace(ns).resource(otherContent(taken)).create()))
                .compose(created -> admit(pod("b", "1024"), false));

        finishOnWorker(ctx, vertx, reply, r -> {
            assertThat(r.path("allowed").asBoolean()).isFalse();
            assertThat(r.path("status").path("code").asInt()).isEqualTo(500);
            assertThat(r.path("status").path("message").asText())
                    .contains(ns + "/" + name.result(), "exists with other content", "not made by the vgpu gateway");
        });
    }

    private GenericKubernetesResource otherContent(String name) {
        GenericKubernetesResource t = new GenericKubernetesResource();
        t.setApiVersion("resource.k8s.io/v1");
        t.setKind("ResourceClaimTemplate");
        t.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns).build());
        t.setAdditionalProperty("spec", Map.of("spec", Map.of("devices", Map.of())));
        return t;
    }

    private List<GenericKubernetesResource> templates() {
        return client.genericKubernetesResources(TEMPLATES).inNamespace(ns).list().getItems();
    }

    /** The webhook's answer to an AdmissionReview of {@code pod}: its {@code response}. */
    private Future<JsonNode> admit(ObjectNode pod, boolean dryRun) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("apiVersion", "admission.k8s.io/v1");
        root.put("kind", "AdmissionReview");
        ObjectNode request = root.putObject("request");
        request.put("uid", "uid-" + pod.path("metadata").path("name").asText());
        request.put("namespace", ns);
        request.put("dryRun", dryRun);
        request.set("object", pod);
        byte[] review;
        try {
            review = MAPPER.writeValueAsBytes(root);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        return step(service.admit(review)).map(reply -> {
            try {
                return MAPPER.readTree(reply.body()).get("response");
            } catch (java.io.IOException e) {
                throw new AssertionError(e);
            }
        });
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
