package io.vgpu.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vgpu.gateway.GatewayConfig;
import io.vgpu.gateway.config.EnvReader;
import io.vgpu.gateway.core.port.Readiness;
import io.vgpu.gateway.http.ApiRoute;
import io.vgpu.gateway.extender.ExtenderRejections;
import io.vgpu.gateway.metrics.GatewayMetrics;
import io.vgpu.gateway.http.GatewayVerticle;
import io.vgpu.gateway.http.GatewayVertx;
import io.vgpu.gateway.http.InFlightLimiter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The chart's client authentication end to end, over real TLS with the certificates the chart generates: the gateway
 * is started with the environment and files of the rendered gateway container (its own config reader, its own
 * listener), and called with the files the rendered kube-scheduler container mounts and names in its extender
 * {@code tlsConfig} (certFile, keyFile, caFile). kube-scheduler reaches {@code /filter} and {@code /bind}; a caller
 * without a certificate does not, nor one holding another certificate of the same CA (the gateway's own serving
 * certificate, whose key usage would allow client authentication); the webhook needs none.
 */
class ExtenderClientAuthTest {

    private static final long ONE_MIB = 1024 * 1024;

    @TempDir
    Path dir;
    Vertx vertx;
    int port;
    Map<String, String> kubeSchedulerTls;
    Map<String, String> gatewayFiles;
    final Queue<String> handled = new ConcurrentLinkedQueue<>();

    @BeforeEach
    void start() throws Exception {
        Rendered r = Helm.template(ValueSet.DEFAULT);
        JsonNode sts = r.one("StatefulSet", Names.SCHEDULER);
        JsonNode gateway = Pods.container(sts, "gateway");
        MountedFiles gatewayMounts = MountedFiles.of(r, sts, gateway, dir.resolve("gateway"));
        Map<String, String> env = new LinkedHashMap<>(gatewayMounts.rewrite(Pods.env(gateway)));
        env.put("VGPU_HTTP_PORT", "0");
        env.put("VGPU_METRICS_PORT", "0");
        env.put("VGPU_BIND_ADDRESS", "127.0.0.1");
        EnvReader reader = new EnvReader(env, GatewayConfig.PREFIX);
        GatewayConfig config = GatewayConfig.read(reader);
        gatewayFiles = Map.of("cert", config.tls().certFile().toString(), "key", config.tls().keyFile().toString());

        JsonNode ks = Pods.container(sts, "kube-scheduler");
        MountedFiles ksMounts = MountedFiles.of(r, sts, ks, dir.resolve("kube-scheduler"));
        JsonNode tls = KubeSchedulerConfigTest.configs(r).get(0).path("extenders").get(0).path("tlsConfig");
        kubeSchedulerTls = Map.of("cert", ksMounts.local(tls.path("certFile").asText()).toString(),
                "key", ksMounts.local(tls.path("keyFile").asText()).toString(),
                "ca", ksMounts.local(tls.path("caFile").asText()).toString());

        vertx = GatewayVertx.create(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        GatewayVerticle verticle = new GatewayVerticle(config.listener(), List.of(route("/filter", true), route("/bind", true),
                route("/webhook", false)), Readiness.ALWAYS);
        vertx.deployVerticle(verticle).await();
        port = verticle.actualPort();
    }

    @AfterEach
    void stop() {
        vertx.close().await();
    }

    private ApiRoute route(String path, boolean schedulerOnly) {
        return new ApiRoute(path, ONE_MIB, new InFlightLimiter(path, 8), c -> {
            handled.add(path);
            c.response().putHeader("Content-Type", "application/json").end("{\"Error\":\"\"}");
        }, ExtenderRejections.bind(ONE_MIB, new GatewayMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), "test")), schedulerOnly);
    }

    @Test
    void kubeSchedulersMountedCertificateReachesTheExtenderAndNothingElseDoes() {
        String scheduler = post(kubeSchedulerTls.get("cert"), kubeSchedulerTls.get("key"), "/filter")
                + post(kubeSchedulerTls.get("cert"), kubeSchedulerTls.get("key"), "/bind");
        assertThat(scheduler).isEqualTo("{\"Error\":\"\"}{\"Error\":\"\"}");
        assertThat(handled).containsExactly("/filter", "/bind");

        assertThat(post(null, null, "/bind")).contains("client certificate required");
        assertThat(post(gatewayFiles.get("cert"), gatewayFiles.get("key"), "/bind"))
                .contains("may not call /bind", "vgpu-kube-scheduler");
        assertThat(post(null, null, "/webhook")).as("the API server presents no client certificate")
                .isEqualTo("{\"Error\":\"\"}");
        assertThat(handled).containsExactly("/filter", "/bind", "/webhook");
    }

    /**
     * POSTs {@code {}} as kube-scheduler would: verifying the gateway against the mounted {@code caFile} (not its
     * host name: the test dials 127.0.0.1), presenting {@code cert}/{@code key} when given.
     */
    private String post(String cert, String key, String path) {
        HttpClientOptions options = new HttpClientOptions().setSsl(true).setVerifyHost(false).setKeepAlive(false)
                .setTrustOptions(new PemTrustOptions().addCertPath(kubeSchedulerTls.get("ca")));
        if (cert != null) {
            options.setKeyCertOptions(new PemKeyCertOptions().setCertPath(cert).setKeyPath(key));
        }
        var client = vertx.createHttpClient(options);
        try {
            return client.request(HttpMethod.POST, port, "127.0.0.1", path)
                    .compose(req -> req.putHeader("Content-Type", "application/json").send(Buffer.buffer("{}")))
                    .compose(resp -> resp.body()).await().toString();
        } finally {
            client.close().await();
        }
    }
}
