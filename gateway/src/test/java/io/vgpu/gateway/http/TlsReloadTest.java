package io.vgpu.gateway.http;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.net.SelfSignedCertificate;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vgpu.gateway.GatewayConfig;
import io.vgpu.gateway.core.port.Readiness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** HTTPS from PEM files, and the certificate reload when the files change. */
@ExtendWith(VertxExtension.class)
@Timeout(value = 15, timeUnit = TimeUnit.SECONDS)
class TlsReloadTest {

    @TempDir
    Path dir;
    Vertx vertx;
    HttpClient client;

    @AfterEach
    void close(VertxTestContext ctx) {
        vertx.close().onComplete(ctx.succeedingThenComplete());
    }

    @Test
    void servesHttpsAndPicksUpARenewedCertificate(VertxTestContext ctx) throws IOException {
        Path cert = dir.resolve("tls.crt");
        Path key = dir.resolve("tls.key");
        install("first.gateway.test", cert, key, Instant.now().minusSeconds(60));
        GatewayConfig config = TestGateway.config("VGPU_PLAIN_HTTP", null, "VGPU_EXTENDER_CLIENT_AUTH", "none",
                "VGPU_TLS_CERT_FILE", cert.toString(),
                "VGPU_TLS_KEY_FILE", key.toString(), "VGPU_TLS_RELOAD_INTERVAL", "100ms");
        vertx = GatewayVertx.create(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        client = vertx.createHttpClient(new HttpClientOptions().setSsl(true).setTrustAll(true).setVerifyHost(false)
                .setKeepAlive(false));
        GatewayVerticle verticle = new GatewayVerticle(config.listener(), List.of(), Readiness.ALWAYS);
        vertx.deployVerticle(verticle)
                .compose(id -> subject(verticle.actualPort()))
                .compose(first -> {
                    ctx.verify(() -> assertThat(first).contains("CN=first.gateway.test"));
                    try {
                        install("second.gateway.test", cert, key, Instant.now().plusSeconds(5));
                    } catch (IOException e) {
                        return Future.failedFuture(e);
                    }
                    return awaitSubject(verticle.actualPort(), "CN=second.gateway.test", 50);
                })
                .onComplete(ctx.succeeding(second -> ctx.verify(() -> {
                    assertThat(second).contains("CN=second.gateway.test");
                    ctx.completeNow();
                })));
    }

    @Test
    void plainHttpClientsCannotTalkToTheHttpsListener(VertxTestContext ctx) throws IOException {
        Path cert = dir.resolve("tls.crt");
        Path key = dir.resolve("tls.key");
        install("only.gateway.test", cert, key, Instant.now());
        GatewayConfig config = TestGateway.config("VGPU_PLAIN_HTTP", null, "VGPU_EXTENDER_CLIENT_AUTH", "none",
                "VGPU_TLS_CERT_FILE", cert.toString(),
                "VGPU_TLS_KEY_FILE", key.toString());
        vertx = GatewayVertx.create(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        HttpClient plain = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(false));
        GatewayVerticle verticle = new GatewayVerticle(config.listener(), List.of(), Readiness.ALWAYS);
        vertx.deployVerticle(verticle)
                .compose(id -> plain.request(HttpMethod.GET, verticle.actualPort(), "127.0.0.1", "/healthz"))
                .compose(req -> req.send())
                .onComplete(ar -> ctx.verify(() -> {
                    assertThat(ar.succeeded() && ar.result().statusCode() == 200).as("plain HTTP answered").isFalse();
                    ctx.completeNow();
                }));
    }

    /** Writes a fresh self-signed pair for {@code host} over {@code cert}/{@code key}, stamped {@code mtime}. */
    private static void install(String host, Path cert, Path key, Instant mtime) throws IOException {
        SelfSignedCertificate generated = SelfSignedCertificate.create(host);
        try {
            replace(Path.of(generated.certificatePath()), cert, mtime);
            replace(Path.of(generated.privateKeyPath()), key, mtime);
        } finally {
            generated.delete();
        }
    }

    private static void replace(Path from, Path to, Instant mtime) throws IOException {
        Path tmp = to.resolveSibling(to.getFileName() + ".tmp");
        Files.copy(from, tmp, StandardCopyOption.REPLACE_EXISTING);
        Files.setLastModifiedTime(tmp, FileTime.from(mtime));
        Files.move(tmp, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The subject of the certificate a new connection to {@code port} is served. */
    private Future<String> subject(int port) {
        return client.request(HttpMethod.GET, port, "127.0.0.1", "/healthz")
                .compose(req -> req.send().map(resp -> {
                    try {
                        return ((X509Certificate) req.connection().peerCertificates().get(0))
                                .getSubjectX500Principal().getName();
                    } catch (javax.net.ssl.SSLPeerUnverifiedException e) {
                        throw new IllegalStateException(e);
                    }
                }));
    }

    private Future<String> awaitSubject(int port, String expected, int attemptsLeft) {
        return subject(port).compose(s -> {
            if (s.contains(expected) || attemptsLeft == 0) {
                return Future.succeededFuture(s);
            }
            return vertx.timer(100).compose(t -> awaitSubject(port, expected, attemptsLeft - 1));
        });
    }
}
