package io.vgpu.gateway.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vgpu.gateway.GatewayConfig;
import io.vgpu.gateway.core.port.Readiness;
import io.vgpu.gateway.core.quota.NamespaceQuota;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.core.webhook.WebhookConfig;
import io.vgpu.gateway.core.webhook.WebhookDecider;
import io.vgpu.gateway.http.ApiRoute;
import io.vgpu.gateway.metrics.GatewayMetrics;
import io.vgpu.gateway.http.GatewayVerticle;
import io.vgpu.gateway.http.GatewayVertx;
import io.vgpu.gateway.http.InFlightLimiter;
import io.vgpu.gateway.http.MetricsVerticle;
import io.vgpu.gateway.http.TestGateway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Named.named;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * {@code POST /webhook} over real HTTP: golden AdmissionReviews (v1 and v1beta1), transport errors,
 * failure policy, sharding, overload and the request timer.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
class WebhookEndpointTest {

    static final String JSON = "application/json";
    static final NamespaceQuota BROKEN_QUOTA = (ns, mem, cores) -> {
        throw new IllegalStateException("quota store unavailable");
    };
    static final List<String> SHARDS = List.of("sched-a", "sched-b", "sched-c");

    static Vertx vertx;
    static WebClient client;
    static PrometheusMeterRegistry registry;
    static int metricsPort;
    static InFlightLimiter busyFail;
    static InFlightLimiter busyIgnore;

    @BeforeAll
    static void start(VertxTestContext ctx) {
        registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        vertx = GatewayVertx.create(registry);
        GatewayMetrics metrics = new GatewayMetrics(registry, "test-replica");
        GatewayConfig config = TestGateway.config();
        WebhookConfig hami = config.webhookConfig();
        busyFail = new InFlightLimiter("/webhook-busy-fail", 1);
        busyIgnore = new InFlightLimiter("/webhook-busy-ignore", 1);
        List<ApiRoute> routes = List.of(
                route("/webhook", hami, NamespaceQuota.UNLIMITED, FailurePolicy.IGNORE, 512, metrics),
                route("/webhook-fail", hami, BROKEN_QUOTA, FailurePolicy.FAIL, 512, metrics),
                route("/webhook-ignore", hami, BROKEN_QUOTA, FailurePolicy.IGNORE, 512, metrics),
                route("/webhook-sharded", new WebhookConfig(SHARDS, true, NvidiaConfig.defaults()),
                        NamespaceQuota.UNLIMITED, FailurePolicy.IGNORE, 512, metrics),
                route(busyFail, hami, FailurePolicy.FAIL, metrics),
                route(busyIgnore, hami, FailurePolicy.IGNORE, metrics));
        GatewayVerticle api = new GatewayVerticle(config.listener(), routes, Readiness.ALWAYS);
        MetricsVerticle metricsVerticle = new MetricsVerticle("127.0.0.1", 0, registry);
        vertx.deployVerticle(api)
                .compose(id -> vertx.deployVerticle(metricsVerticle))
                .onComplete(ctx.succeeding(id -> {
                    metricsPort = metricsVerticle.actualPort();
                    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1")
                            .setDefaultPort(api.actualPort()));
                    ctx.completeNow();
                }));
    }

    @AfterAll
    static void stop(VertxTestContext ctx) {
        vertx.close().onComplete(ctx.succeedingThenComplete());
    }

    static ApiRoute route(String path, WebhookConfig config, NamespaceQuota quota, FailurePolicy policy, int maxInFlight,
                          GatewayMetrics metrics) {
        return route(new InFlightLimiter(path, maxInFlight), config, quota, policy, metrics);
    }

    static ApiRoute route(InFlightLimiter limiter, WebhookConfig config, FailurePolicy policy, GatewayMetrics metrics) {
        return route(limiter, config, NamespaceQuota.UNLIMITED, policy, metrics);
    }

    static ApiRoute route(InFlightLimiter limiter, WebhookConfig config, NamespaceQuota quota, FailurePolicy policy,
                          GatewayMetrics metrics) {
        long maxBody = 7L * 1024 * 1024;
        metrics.inFlight(limiter.endpoint(), limiter::inFlight);
        WebhookHandler handler = new WebhookHandler(
                new WebhookService(new WebhookDecider(config), quota, policy, maxBody), metrics);
        return new ApiRoute(limiter.endpoint(), maxBody, limiter, handler, handler);
    }

    static Future<HttpResponse<Buffer>> post(String path, String contentType, byte[] body) {
        var request = client.post(path);
        if (contentType != null) {
            request.putHeader("Content-Type", contentType);
        }
        return request.sendBuffer(Buffer.buffer(body));
    }

    static Stream<String> goldenCases() {
        return Stream.of("v1-allowed-gpu", "v1beta1-allowed-gpu", "v1-allowed-unchanged", "v1-allowed-foreign-scheduler",
                "v1-denied-privileged", "v1beta1-denied-no-containers", "v1-errored-percentage",
                "v1-errored-undecodable-pod");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldenCases")
    void answersLikeTheGoldenReview(String name, VertxTestContext ctx) {
        byte[] review = AdmissionFixtures.bytes(name + ".review.json");
        post("/webhook", JSON, review).onComplete(ctx.succeeding(resp -> ctx.verify(() -> {
            assertThat(resp.statusCode()).isEqualTo(200);
            assertThat(resp.getHeader("Content-Type")).isEqualTo(JSON);
            JsonNode actual = AdmissionFixtures.parse(resp.body().getBytes());
            assertThat(AdmissionFixtures.withDecodedPatch(actual))
                    .isEqualTo(AdmissionFixtures.json(name + ".response.json"));
            JsonNode patchedGolden = AdmissionFixtures.json(name + ".patched-pod.json");
            if (patchedGolden != null) {
                assertThat(AdmissionFixtures.patchedPod(AdmissionFixtures.parse(review), actual)).isEqualTo(patchedGolden);
            }
            ctx.completeNow();
        })));
    }

    @Test
    void patchLeavesFieldsTheGatewayDoesNotKnowUntouched(VertxTestContext ctx) {
        JsonNode review = AdmissionFixtures.json("v1-allowed-gpu.review.json");
        JsonNode before = review.path("request").path("object");
        post("/webhook", JSON, AdmissionFixtures.bytes("v1-allowed-gpu.review.json"))
                .onComplete(ctx.succeeding(resp -> ctx.verify(() -> {
                    JsonNode after = AdmissionFixtures.patchedPod(review, AdmissionFixtures.parse(resp.body().getBytes()));
                    assertThat(after.at("/spec/schedulerName").asText()).isEqualTo("hami-scheduler");
                    for (String kept : List.of("/spec/tolerations", "/metadata/ownerReferences", "/metadata/managedFields",
                            "/spec/futureField", "/spec/volumes", "/spec/containers/0/volumeMounts",
                            "/spec/containers/0/env/1/valueFrom", "/spec/containers/0/env/2", "/spec/initContainers",
                            "/status")) {
                        assertThat(after.at(kept)).as(kept).isEqualTo(before.at(kept));
                    }
                    ctx.completeNow();
                })));
    }

    static Stream<Arguments> transportErrors() {
        return Stream.of(
                arguments(named("empty body", new Object[] {JSON, new byte[0]}), 200, 400, "request body is empty"),
                arguments(named("garbage", new Object[] {JSON, bytes("{not json")}), 200, 400,
                        "couldn't decode AdmissionReview"),
                arguments(named("a JSON array", new Object[] {JSON, bytes("[1,2]")}), 200, 400,
                        "expected a JSON object"),
                arguments(named("unknown apiVersion", new Object[] {JSON,
                        bytes("{\"apiVersion\":\"admission.k8s.io/v2\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\"}}")}),
                        200, 400, "unsupported review"),
                arguments(named("no request: no uid to echo", new Object[] {JSON,
                        bytes("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\"}")}),
                        400, 400, "AdmissionReview has no request"),
                arguments(named("request without uid", new Object[] {JSON,
                        bytes("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"object\":{}}}")}),
                        400, 400, "AdmissionReview request has no uid"),
                arguments(named("body over 7 MiB", new Object[] {JSON, new byte[7 * 1024 * 1024 + 1]}), 200, 413,
                        "request entity is too large; limit is 7340032 bytes"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transportErrors")
    void answersTransportErrorsInsideTheReview(Object[] request, int httpStatus, int code, String message,
                                               VertxTestContext ctx) {
        post("/webhook", (String) request[0], (byte[]) request[1]).onComplete(ctx.succeeding(resp -> ctx.verify(() -> {
            assertThat(resp.statusCode()).isEqualTo(httpStatus);
            JsonNode review = AdmissionFixtures.parse(resp.body().getBytes());
            assertThat(review.path("kind").asText()).isEqualTo("AdmissionReview");
            assertThat(review.path("apiVersion").asText()).startsWith("admission.k8s.io/v1");
            assertThat(review.at("/response/allowed").asBoolean(true)).isFalse();
            assertThat(review.at("/response/status/code").asInt()).isEqualTo(code);
            assertThat(review.at("/response/status/message").asText()).contains(message);
            assertThat(review.at("/response/patch").isMissingNode()).isTrue();
            ctx.completeNow();
        })));
    }

    @ParameterizedTest(name = "content type [{0}]")
    @ValueSource(strings = {"", "text/plain", "application/json; charset=utf-8", "application/x-www-form-urlencoded",
        "multipart/form-data"})
    void readsEveryBodyAsJsonWhateverItsContentType(String contentType, VertxTestContext ctx) {
        post("/webhook", contentType.isEmpty() ? null : contentType,
                AdmissionFixtures.bytes("v1-allowed-unchanged.review.json"))
                .onComplete(ctx.succeeding(resp -> ctx.verify(() -> {
                    assertThat(resp.statusCode()).isEqualTo(200);
                    JsonNode review = AdmissionFixtures.parse(resp.body().getBytes());
                    assertThat(review.at("/response/allowed").asBoolean()).isTrue();
                    assertThat(review.at("/response/status/code").asInt()).isEqualTo(200);
                    ctx.completeNow();
                })));
    }

    @Test
    void unknownApiVersionStillEchoesTheUid(VertxTestContext ctx) {
        post("/webhook", JSON, bytes("{\"apiVersion\":\"admission.k8s.io/v2\",\"kind\":\"AdmissionReview\","
                + "\"request\":{\"uid\":\"u-1\"}}")).onComplete(ctx.succeeding(resp -> ctx.verify(() -> {
                    assertThat(AdmissionFixtures.parse(resp.body().getBytes()).at("/response/uid").asText())
                            .isEqualTo("u-1");
                    ctx.completeNow();
                })));
    }

    @Test
    void internalErrorFailsClosedUnderFailurePolicyFail(VertxTestContext ctx) {
        post("/webhook-fail", JSON, AdmissionFixtures.bytes("v1beta1-allowed-gpu.review.json"))
                .onComplete(ctx.succeeding(resp -> ctx.verify(() -> {
                    JsonNode review = AdmissionFixtures.parse(resp.body().getBytes());
                    assertThat(resp.statusCode()).isEqualTo(200);
                    assertThat(review.at("/apiVersion").asText()).isEqualTo("admission.k8s.io/v1beta1");
                    assertThat(review.at("/response/uid").asText()).isEqualTo("0df28fbd-5f5f-11e8-bc74-36e6bb280816");
                    assertThat(review.at("/response/allowed").asBoolean()).isFalse();
                    assertThat(review.at("/response/status/code").asInt()).isEqualTo(500);
                    assertThat(review.at("/response/status/message").asText()).contains("quota store unavailable");
                    ctx.completeNow();
                })));
    }

    @Test
    void internalErrorAdmitsUnchangedUnderFailurePolicyIgnore(VertxTestContext ctx) {
        post("/webhook-ignore", JSON, AdmissionFixtures.bytes("v1beta1-allowed-gpu.review.json"))
                .onComplete(ctx.succeeding(resp -> ctx.verify(() -> {
                    JsonNode review = AdmissionFixtures.parse(resp.body().getBytes());
                    assertThat(review.at("/response/allowed").asBoolean()).isTrue();
                    assertThat(review.at("/response/status/code").asInt()).isEqualTo(200);
                    assertThat(review.at("/response/status/message").asText()).contains("failurePolicy Ignore");
                    assertThat(review.at("/response/patch").isMissingNode()).isTrue();
                    assertThat(review.at("/response/patchType").isMissingNode()).isTrue();
                    ctx.completeNow();
                })));
    }

    @ParameterizedTest(name = "review uid {0}")
    @ValueSource(strings = {"a7f3c1d0-0000-4000-8000-000000000001", "b1e2d3c4-0000-4000-8000-000000000002",
        "c9d8e7f6-0000-4000-8000-000000000003", "d0d0d0d0-0000-4000-8000-000000000004"})
    void shardsGpuPodsByTheReviewUidWhenThePodHasNone(String uid, VertxTestContext ctx) {
        ObjectNode review = (ObjectNode) AdmissionFixtures.json("v1beta1-allowed-gpu.review.json");
        ((ObjectNode) review.get("request")).put("uid", uid);
        String expected = SHARDS.get(Math.floorMod(WebhookConfig.fnv1a32(uid), SHARDS.size()));
        post("/webhook-sharded", JSON, review.toString().getBytes(StandardCharsets.UTF_8))
                .onComplete(ctx.succeeding(resp -> ctx.verify(() -> {
                    JsonNode after = AdmissionFixtures.patchedPod(review, AdmissionFixtures.parse(resp.body().getBytes()));
                    assertThat(after.at("/spec/schedulerName").asText()).isEqualTo(expected);
                    ctx.completeNow();
                })));
    }

    @Test
    void overloadFailsClosedUnderFailurePolicyFail(VertxTestContext ctx) {
        assertThat(busyFail.tryAcquire()).isTrue(); // the one slot is taken by a request "in flight"
        post("/webhook-busy-fail", JSON, AdmissionFixtures.bytes("v1-allowed-gpu.review.json"))
                .onComplete(ctx.succeeding(resp -> ctx.verify(() -> {
                    busyFail.release();
                    JsonNode review = AdmissionFixtures.parse(resp.body().getBytes());
                    assertThat(resp.statusCode()).isEqualTo(200);
                    assertThat(review.at("/response/uid").asText()).isEqualTo("705ab4f5-6393-11e8-b7cc-42010a800002");
                    assertThat(review.at("/response/allowed").asBoolean()).isFalse();
                    assertThat(review.at("/response/status/code").asInt()).isEqualTo(503);
                    assertThat(review.at("/response/status/message").asText()).isEqualTo("gateway overloaded");
                    ctx.completeNow();
                })));
    }

    @Test
    void overloadAdmitsUnchangedUnderFailurePolicyIgnore(VertxTestContext ctx) {
        assertThat(busyIgnore.tryAcquire()).isTrue();
        post("/webhook-busy-ignore", JSON, AdmissionFixtures.bytes("v1-allowed-gpu.review.json"))
                .compose(overloaded -> {
                    busyIgnore.release();
                    return post("/webhook-busy-ignore", JSON, AdmissionFixtures.bytes("v1-allowed-gpu.review.json"))
                            .map(normal -> List.of(overloaded, normal));
                })
                // the slot is returned by the response's end handler on the server's event loop, which may run just
                // after the client has the answer: wait for it (bounded) instead of racing it
                .compose(both -> slotsReturned(busyIgnore, 200).map(both))
                .onComplete(ctx.succeeding(both -> ctx.verify(() -> {
                    JsonNode overloaded = AdmissionFixtures.parse(both.get(0).body().getBytes());
                    assertThat(overloaded.at("/response/allowed").asBoolean()).isTrue();
                    assertThat(overloaded.at("/response/patch").isMissingNode()).isTrue();
                    assertThat(overloaded.at("/response/status/message").asText()).contains("overloaded");
                    JsonNode normal = AdmissionFixtures.parse(both.get(1).body().getBytes());
                    assertThat(normal.at("/response/patch").isMissingNode()).as("slot free again: mutated").isFalse();
                    assertThat(busyIgnore.inFlight()).isZero();
                    ctx.completeNow();
                })));
    }

    /** Completes once {@code limiter} holds no slot, or after {@code tries} checks 10 ms apart (the caller asserts). */
    private static Future<Void> slotsReturned(InFlightLimiter limiter, int tries) {
        if (limiter.inFlight() == 0 || tries <= 0) {
            return Future.succeededFuture();
        }
        return vertx.timer(10).compose(t -> slotsReturned(limiter, tries - 1));
    }

    @Test
    void scrapeShowsTheWebhookTimerWithReplicaTag(VertxTestContext ctx) {
        WebClient metrics = WebClient.create(vertx);
        post("/webhook", JSON, AdmissionFixtures.bytes("v1-allowed-gpu.review.json"))
                .compose(done -> metrics.get(metricsPort, "127.0.0.1", "/metrics").send())
                .onComplete(ctx.succeeding(resp -> ctx.verify(() -> {
                    String scrape = resp.bodyAsString();
                    assertThat(resp.statusCode()).isEqualTo(200);
                    assertThat(scrape).containsPattern(
                            "vgpu_webhook_duration_seconds_count\\{outcome=\"allowed\",replica=\"test-replica\"} [1-9]");
                    assertThat(scrape).contains("vgpu_webhook_duration_seconds_bucket{outcome=\"allowed\"");
                    assertThat(scrape).contains("vgpu_http_in_flight{endpoint=\"/webhook\",replica=\"test-replica\"}");
                    assertThat(scrape).contains("vertx_http_server_requests_total");
                    metrics.close();
                    ctx.completeNow();
                })));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
