package io.vgpu.gateway.http;

import io.vgpu.gateway.metrics.GatewayMetrics;
import io.vgpu.gateway.extender.ExtenderRejections;
import io.vgpu.gateway.endpoint.RequestBody;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vgpu.gateway.GatewayConfig;
import io.vgpu.gateway.core.port.Readiness;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The API listener over real HTTP: probes, problem bodies, the extender-style overload and body-limit
 * answers, and the drain on stop.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
class GatewayVerticleTest {

    static final long ONE_MIB = 1024 * 1024;
    static final GatewayMetrics METRICS = new GatewayMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
            "test-replica");

    static Vertx vertx;
    static WebClient client;
    static int apiPort;
    static final AtomicBoolean informersSynced = new AtomicBoolean(true);
    static final AtomicBoolean memberJoined = new AtomicBoolean(true);
    /** Requests of the slow route, held until the test answers them. */
    static final Queue<RoutingContext> held = new ConcurrentLinkedQueue<>();
    static final InFlightLimiter slowLimiter = new InFlightLimiter("/filter", 1);

    @BeforeAll
    static void start(VertxTestContext ctx) {
        vertx = GatewayVertx.create(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        Readiness readiness = Readiness.of(Map.<String, BooleanSupplier>of(
                "informers", informersSynced::get, "hazelcast", memberJoined::get));
        GatewayVerticle verticle = new GatewayVerticle(TestGateway.config().listener(), List.of(slowRoute(), echoRoute()),
                readiness);
        vertx.deployVerticle(verticle).onComplete(ctx.succeeding(id -> {
            apiPort = verticle.actualPort();
            client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1")
                    .setDefaultPort(apiPort));
            ctx.completeNow();
        }));
    }

    @AfterAll
    static void stop(VertxTestContext ctx) {
        vertx.close().onComplete(ctx.succeedingThenComplete());
    }

    /** A filter-like route whose requests stay in flight until the test ends them. */
    static ApiRoute slowRoute() {
        return new ApiRoute("/filter", ONE_MIB, slowLimiter, held::add, ExtenderRejections.filter(ONE_MIB, METRICS));
    }

    /** A route that answers the body it read, as bytes. */
    static ApiRoute echoRoute() {
        return new ApiRoute("/echo", ONE_MIB, new InFlightLimiter("/echo", 8),
                ctx -> ctx.response().end(Buffer.buffer(RequestBody.bytes(ctx))), ExtenderRejections.bind(ONE_MIB,
                METRICS));
    }

    static void answerHeld() {
        RoutingContext ctx;
        while ((ctx = held.poll()) != null) {
            ctx.response().end("{\"NodeNames\":[\"n1\"],\"Error\":\"\"}");
        }
    }

    @Test
    void livenessIsAlwaysOk(VertxTestContext ctx) {
        client.get("/healthz").send().onComplete(ctx.succeeding(resp -> ctx.verify(() -> {
            assertThat(resp.statusCode()).isEqualTo(200);
            assertThat(resp.bodyAsJsonObject()).isEqualTo(new JsonObject().put("status", "ok"));
            ctx.completeNow();
        })));
    }

    @ParameterizedTest(name = "informers synced={0}, member joined={1}")
    @CsvSource({"true, true, 200, ", "false, true, 503, informers", "true, false, 503, hazelcast",
        "false, false, 503, 'informers,hazelcast'"})
    void readinessNamesWhatIsNotReady(boolean synced, boolean joined, int status, String notReady,
                                      VertxTestContext ctx) {
        informersSynced.set(synced);
        memberJoined.set(joined);
        client.get("/readyz").send().onComplete(ctx.succeeding(resp -> ctx.verify(() -> {
            informersSynced.set(true);
            memberJoined.set(true);
            assertThat(resp.statusCode()).isEqualTo(status);
            JsonObject body = resp.bodyAsJsonObject();
            assertThat(body.getBoolean("ready")).isEqualTo(status == 200);
            if (notReady == null) {
                assertThat(body.containsKey("notReady")).isFalse();
            } else {
                assertThat(body.getJsonArray("notReady").getList()).containsExactlyInAnyOrder((Object[]) notReady.split(","));
            }
            ctx.completeNow();
        })));
    }

    @ParameterizedTest(name = "{0} {1} → {2}")
    @CsvSource({"GET, /nope, 404, Not Found", "GET, /filter, 405, Method Not Allowed",
        "POST, /healthz, 405, Method Not Allowed"})
    void plainHttpFailuresGetProblemBodies(String method, String path, int status, String title,
                                           VertxTestContext ctx) {
        client.request(io.vertx.core.http.HttpMethod.valueOf(method), path).send()
                .onComplete(ctx.succeeding(resp -> ctx.verify(() -> {
                    assertThat(resp.statusCode()).isEqualTo(status);
                    assertThat(resp.getHeader("Content-Type")).isEqualTo("application/problem+json");
                    assertThat(resp.bodyAsJsonObject()).isEqualTo(new JsonObject().put("type", "about:blank")
                            .put("title", title).put("status", status).put("detail", method + " " + path));
                    ctx.completeNow();
                })));
    }

    @Test
    void extenderRouteAnswersOverloadedPastItsBound(VertxTestContext ctx) {
        var first = client.post("/filter").sendJsonObject(new JsonObject().put("Pod", new JsonObject()));
        vertx.setPeriodic(5, id -> {
            if (held.isEmpty()) {
                return; // wait until the first request holds the only slot
            }
            vertx.cancelTimer(id);
            client.post("/filter").sendJsonObject(new JsonObject()).onComplete(ctx.succeeding(second -> {
                answerHeld();
                first.onComplete(ctx.succeeding(firstResp -> ctx.verify(() -> {
                    assertThat(second.statusCode()).isEqualTo(200);
                    assertThat(second.bodyAsString()).isEqualTo("{\"Nodes\":null,\"NodeNames\":null,\"FailedNodes\":null,"
                            + "\"FailedAndUnresolvableNodes\":null,\"Error\":\"overloaded\"}");
                    assertThat(firstResp.bodyAsJsonObject().getString("Error")).isEmpty();
                    vertx.setTimer(50, t -> ctx.verify(() -> {
                        assertThat(slowLimiter.inFlight()).isZero();
                        ctx.completeNow();
                    }));
                })));
            }));
        });
    }

    @Test
    void extenderRouteRejectsOversizedBodiesWithAnError(VertxTestContext ctx) {
        client.post("/filter").putHeader("Content-Type", "application/json")
                .sendBuffer(Buffer.buffer(new byte[(int) ONE_MIB + 1]))
                .onComplete(ctx.succeeding(resp -> ctx.verify(() -> {
                    assertThat(resp.statusCode()).isEqualTo(200);
                    assertThat(resp.bodyAsJsonObject().getString("Error")).isEqualTo("request body exceeds 1048576 bytes");
                    assertThat(slowLimiter.inFlight()).isZero();
                    ctx.completeNow();
                })));
    }

    @ParameterizedTest(name = "content type [{0}]")
    @CsvSource({"''", "application/x-www-form-urlencoded", "multipart/form-data", "multipart/form-data; boundary=b",
        "text/plain"})
    void theBodyIsReadAsBytesWhateverItsContentType(String contentType, VertxTestContext ctx) {
        // not a valid form (a % without two hex digits) nor multipart: Vert.x's BodyHandler lost it or answered 400
        Buffer body = Buffer.buffer("{\"note\":\"100% of a share\",\"x\":\"a&b=c\"}");
        var request = client.post("/echo").putHeader("Expect", "100-continue");
        if (!contentType.isEmpty()) {
            request.putHeader("Content-Type", contentType);
        }
        request.sendBuffer(body).onComplete(ctx.succeeding(resp -> ctx.verify(() -> {
            assertThat(resp.statusCode()).isEqualTo(200);
            assertThat(resp.body()).isEqualTo(body);
            ctx.completeNow();
        })));
    }

    @Test
    void aStreamedBodyOverTheLimitIsRefusedInTheProtocol(VertxTestContext ctx) {
        // chunked: no Content-Length to refuse it by, so the limit is met while reading
        io.vertx.core.http.HttpClient http = vertx.createHttpClient();
        http.request(io.vertx.core.http.HttpMethod.POST, apiPort, "127.0.0.1", "/echo")
                .compose(req -> {
                    req.setChunked(true);
                    for (int i = 0; i < 5; i++) {
                        req.write(Buffer.buffer(new byte[(int) ONE_MIB / 4]));
                    }
                    return req.end().compose(v -> req.response()).compose(r -> r.body().map(b -> List.of(
                            (Object) r.statusCode(), b.toString())));
                })
                .onComplete(ctx.succeeding(answer -> ctx.verify(() -> {
                    assertThat(answer.get(0)).isEqualTo(200);
                    assertThat(answer.get(1)).isEqualTo("{\"Error\":\"request body exceeds 1048576 bytes\"}");
                    http.close();
                    ctx.completeNow();
                })));
    }

    @Test
    void stopDrainsInFlightRequestsAndRefusesNewOnes(VertxTestContext ctx) {
        Vertx own = GatewayVertx.create(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        Queue<RoutingContext> mine = new ConcurrentLinkedQueue<>();
        GatewayConfig config = TestGateway.config("VGPU_SHUTDOWN_TIMEOUT", "5s");
        GatewayVerticle verticle = new GatewayVerticle(config.listener(),
                List.of(new ApiRoute("/bind", ONE_MIB, new InFlightLimiter("/bind", 8), mine::add,
                        ExtenderRejections.bind(ONE_MIB, METRICS))), Readiness.ALWAYS);
        own.deployVerticle(verticle).onComplete(ctx.succeeding(id -> {
            WebClient c = WebClient.create(vertx);
            int port = verticle.actualPort();
            var inFlight = c.post(port, "127.0.0.1", "/bind").sendJsonObject(new JsonObject());
            vertx.setPeriodic(5, timer -> {
                if (mine.isEmpty()) {
                    return;
                }
                vertx.cancelTimer(timer);
                Promise<Void> undeployed = Promise.promise();
                own.undeploy(id).onComplete(undeployed);
                // the request is still held: the undeploy must wait for it
                vertx.setTimer(200, t -> {
                    ctx.verify(() -> assertThat(undeployed.future().isComplete()).isFalse());
                    mine.poll().response().end("{\"Error\":\"\"}");
                });
                inFlight.compose(resp -> undeployed.future().map(resp))
                        .compose(resp -> c.get(port, "127.0.0.1", "/healthz").send()
                                .transform(after -> io.vertx.core.Future.succeededFuture(
                                        List.of(resp.bodyAsString(), after.failed()))))
                        .onComplete(ctx.succeeding(results -> ctx.verify(() -> {
                            assertThat(results.get(0)).isEqualTo("{\"Error\":\"\"}");
                            assertThat(results.get(1)).as("new connections refused after stop").isEqualTo(true);
                            own.close();
                            ctx.completeNow();
                        })));
            });
        }));
    }
}
