package io.vgpu.gateway.http;

import io.vgpu.gateway.extender.ExtenderRejections;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.SelfSignedCertificate;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vgpu.gateway.GatewayConfig;
import io.vgpu.gateway.core.port.Readiness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Only kube-scheduler may call the extender verbs, over real TLS: the API listener requests a client certificate,
 * the handshake verifies a presented one against {@code VGPU_TLS_CLIENT_CA_FILE} (reloaded when it changes), and
 * {@code /filter}, {@code /bind} and a scheduler page refuse a caller without one or with a name that is not allowed;
 * the webhook, which the API server calls without a client certificate, keeps working. The "CA" here is a bundle of
 * self-signed certificates, each its own trust anchor (the chart's real CA chain is {@code ExtenderClientAuthTest} in
 * the deploy module).
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
class ClientCertificateTest {

    private static final long ONE_MIB = 1024 * 1024;

    @TempDir
    static Path keys;
    @TempDir
    Path dir;
    static Identity server;
    static Identity kubeScheduler;
    static Identity intruder;
    static Identity stranger;
    Vertx vertx;
    Path clientCa;
    GatewayVerticle verticle;
    final Queue<String> handled = new ConcurrentLinkedQueue<>();
    final Queue<String> refused = new ConcurrentLinkedQueue<>();

    /** A client certificate and key, as PEM files. */
    record Identity(Path cert, Path key) {
    }

    @BeforeAll
    static void identities() throws IOException {
        server = identity("gateway.test");
        kubeScheduler = identity(GatewayConfig.DEFAULT_CLIENT_NAME);
        intruder = identity("intruder"); // trusted, but not a name that may call the extender
        stranger = identity(GatewayConfig.DEFAULT_CLIENT_NAME); // the right name from a CA nobody trusts
    }

    @BeforeEach
    void start(VertxTestContext ctx) throws IOException {
        clientCa = dir.resolve("client-ca.crt");
        install(clientCa, Instant.now().minusSeconds(60), kubeScheduler.cert(), intruder.cert());
        GatewayConfig config = TestGateway.config("VGPU_PLAIN_HTTP", null, "VGPU_TLS_CERT_FILE",
                server.cert().toString(), "VGPU_TLS_KEY_FILE", server.key().toString(), "VGPU_TLS_CLIENT_CA_FILE",
                clientCa.toString(), "VGPU_TLS_RELOAD_INTERVAL", "100ms");
        vertx = GatewayVertx.create(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        verticle = new GatewayVerticle(config.listener(), List.of(route("/filter", true), route("/bind", true),
                route("/webhook", false)),
                Map.of("/readyz", new ReadinessHandler(Readiness.ALWAYS)),
                Map.of("/debug/state", c -> c.response().end("{\"nodes\":[]}")),
                (endpoint, reason) -> refused.add(endpoint + " " + reason));
        vertx.deployVerticle(verticle).onComplete(ctx.succeedingThenComplete());
    }

    @AfterEach
    void stop(VertxTestContext ctx) {
        vertx.close().onComplete(ctx.succeedingThenComplete());
    }

    /** A route that records that its handler ran; the extender verbs answer in their own protocol. */
    private ApiRoute route(String path, boolean schedulerOnly) {
        return new ApiRoute(path, ONE_MIB, new InFlightLimiter(path, 8), c -> {
            handled.add(path);
            c.response().putHeader("Content-Type", "application/json").end("{\"Error\":\"\"}");
        }, ExtenderRejections.filter(ONE_MIB, GatewayVerticleTest.METRICS), schedulerOnly);
    }

    @Test
    void extenderVerbsRefuseACallerWithoutAClientCertificateAndTheWebhookDoesNot(VertxTestContext ctx) {
        WebClient anonymous = client(null);
        post(anonymous, "/filter")
                .compose(filter -> post(anonymous, "/bind").map(bind -> List.of(filter, bind)))
                .compose(answers -> post(anonymous, "/webhook").map(webhook -> {
                    ctx.verify(() -> {
                        for (HttpResponse<Buffer> answer : answers) {
                            // kube-scheduler shows an Error of an HTTP 200 answer; a 4xx would reach it as a bare code
                            assertThat(answer.statusCode()).isEqualTo(200);
                            assertThat(answer.bodyAsJsonObject().getString("Error"))
                                    .startsWith("client certificate required: only kube-scheduler may call /");
                        }
                        assertThat(webhook.statusCode()).isEqualTo(200);
                        assertThat(handled).containsExactly("/webhook");
                        assertThat(refused).containsExactly("/filter no_certificate", "/bind no_certificate");
                    });
                    return null;
                }))
                .compose(v -> anonymous.get(verticle.actualPort(), "127.0.0.1", "/debug/state").send())
                .onComplete(ctx.succeeding(page -> ctx.verify(() -> {
                    assertThat(page.statusCode()).isEqualTo(403);
                    assertThat(page.bodyAsJsonObject().getString("detail")).startsWith("client certificate required");
                    assertThat(page.bodyAsString()).doesNotContain("nodes");
                    ctx.completeNow();
                })));
    }

    @Test
    void kubeSchedulersCertificateReachesTheExtenderVerbsAndTheSchedulerPages(VertxTestContext ctx) {
        WebClient scheduler = client(kubeScheduler);
        post(scheduler, "/filter")
                .compose(filter -> post(scheduler, "/bind"))
                .compose(bind -> scheduler.get(verticle.actualPort(), "127.0.0.1", "/debug/state").send())
                .onComplete(ctx.succeeding(page -> ctx.verify(() -> {
                    assertThat(handled).containsExactly("/filter", "/bind");
                    assertThat(refused).isEmpty();
                    assertThat(page.statusCode()).isEqualTo(200);
                    assertThat(page.bodyAsString()).isEqualTo("{\"nodes\":[]}");
                    ctx.completeNow();
                })));
    }

    @Test
    void aTrustedCertificateWithAnotherNameIsRefused(VertxTestContext ctx) {
        WebClient other = client(intruder);
        post(other, "/bind")
                .compose(bind -> other.get(verticle.actualPort(), "127.0.0.1", "/debug/state").send()
                        .map(page -> List.of(bind, page)))
                .onComplete(ctx.succeeding(answers -> ctx.verify(() -> {
                    assertThat(answers.get(0).statusCode()).isEqualTo(200);
                    assertThat(answers.get(0).bodyAsJsonObject().getString("Error"))
                            .isEqualTo("client certificate CN=intruder may not call /bind: allowed common names are "
                                    + "vgpu-kube-scheduler (VGPU_EXTENDER_CLIENT_NAMES)");
                    assertThat(answers.get(1).statusCode()).isEqualTo(403);
                    assertThat(handled).isEmpty();
                    assertThat(refused).containsExactly("/bind name_not_allowed", "/debug/state name_not_allowed");
                    ctx.completeNow();
                })));
    }

    @Test
    void aCertificateFromAnUntrustedCaFailsTheHandshake(VertxTestContext ctx) {
        post(client(stranger), "/filter").onComplete(ar -> ctx.verify(() -> {
            assertThat(ar.succeeded()).as("answered over a connection whose certificate nobody trusts").isFalse();
            assertThat(handled).isEmpty();
            ctx.completeNow();
        }));
    }

    @Test
    void aChangedClientCaIsPickedUpWithoutARestart(VertxTestContext ctx) {
        post(client(stranger), "/filter")
                .transform(before -> {
                    ctx.verify(() -> assertThat(before.succeeded()).as("stranger before the CA change").isFalse());
                    try {
                        install(clientCa, Instant.now().plusSeconds(5), stranger.cert());
                    } catch (IOException e) {
                        return Future.failedFuture(e);
                    }
                    return awaitAccepted(client(stranger), 50);
                })
                .compose(after -> post(client(kubeScheduler), "/filter").transform(Future::succeededFuture))
                .onComplete(ctx.succeeding(old -> ctx.verify(() -> {
                    assertThat(handled).containsExactly("/filter");
                    assertThat(old.succeeded()).as("the certificate of the CA that was replaced").isFalse();
                    ctx.completeNow();
                })));
    }

    private Future<HttpResponse<Buffer>> awaitAccepted(WebClient client, int attemptsLeft) {
        return post(client, "/filter").recover(e -> {
            if (attemptsLeft == 0) {
                return Future.failedFuture(e);
            }
            return vertx.timer(100).compose(t -> awaitAccepted(client, attemptsLeft - 1));
        });
    }

    private Future<HttpResponse<Buffer>> post(WebClient client, String path) {
        return client.post(verticle.actualPort(), "127.0.0.1", path).putHeader("Content-Type", "application/json")
                .sendJsonObject(new JsonObject());
    }

    /** A client presenting {@code identity} (none when null); it trusts any server, since that is not under test. */
    private WebClient client(Identity identity) {
        WebClientOptions options = new WebClientOptions().setSsl(true).setTrustAll(true).setVerifyHost(false)
                .setKeepAlive(false);
        if (identity != null) {
            options.setKeyCertOptions(new PemKeyCertOptions().setCertPath(identity.cert().toString())
                    .setKeyPath(identity.key().toString()));
        }
        return WebClient.create(vertx, options);
    }

    private static Identity identity(String commonName) throws IOException {
        SelfSignedCertificate generated = SelfSignedCertificate.create(commonName);
        try {
            Path cert = Files.copy(Path.of(generated.certificatePath()), keys.resolve(commonName + "-"
                    + System.nanoTime() + ".crt"));
            Path key = Files.copy(Path.of(generated.privateKeyPath()), keys.resolve(cert.getFileName() + ".key"));
            return new Identity(cert, key);
        } finally {
            generated.delete();
        }
    }

    /** Writes the concatenated certificates over {@code target} at once, stamped {@code mtime}. */
    private static void install(Path target, Instant mtime, Path... certificates) throws IOException {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        StringBuilder bundle = new StringBuilder();
        for (Path c : certificates) {
            bundle.append(Files.readString(c));
        }
        Files.writeString(tmp, bundle);
        Files.setLastModifiedTime(tmp, FileTime.from(mtime));
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
