package io.vgpu.gateway;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vgpu.gateway.http.TestGateway;
import io.vgpu.gateway.metrics.Promtool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.vgpu.gateway.testflow.TestFlow.finish;
import static org.assertj.core.api.Assertions.assertThat;

/** The {@code serve} composition root: fail-fast configuration and the wired listeners. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
@ExtendWith(VertxExtension.class)
class ServeCommandTest {

    static final String GPU_POD_REVIEW = """
            {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"serve-1","namespace":"ns",
             "object":{"metadata":{"name":"p","namespace":"ns"},
                       "spec":{"containers":[{"name":"c","resources":{"limits":{"nvidia.com/gpu":"1"}}}]}}}}""";

    private RunningGateway running;

    @Test
    void exitsWithStatus2ListingEveryConfigurationProblem() {
        PrintStream original = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = new CommandLine(new ServeCommand(Map.of("VGPU_HTTP_PORT", "x", "VGPU_NOPE", "1"))).execute();
        } finally {
            System.setErr(original);
        }
        assertThat(code).isEqualTo(ServeCommand.CONFIG_ERROR);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("VGPU_HTTP_PORT=\"x\"", "VGPU_NOPE is not a known setting",
                "HTTPS needs both");
    }

    @Test
    void mainListsServe() {
        CommandLine cli = new CommandLine(new Main());
        assertThat(cli.getSubcommands()).containsKey("serve");
    }

    @Test
    void startsTheWebhookHealthAndMetricsListenersAndClosesQuickly(VertxTestContext ctx) {
        Future<Replies> flow = GatewayAssembly.start(TestGateway.config(), TestGateway.withoutKubernetes())
                .compose(started -> {
                    running = started;
                    WebClient client = WebClient.create(started.vertx());
                    Future<HttpResponse<Buffer>> webhook = client.post(started.apiPort(), "127.0.0.1", "/webhook")
                            .putHeader("Content-Type", "application/json").sendBuffer(Buffer.buffer(GPU_POD_REVIEW));
                    Future<HttpResponse<Buffer>> ready = webhook.compose(w ->
                            client.get(started.apiPort(), "127.0.0.1", "/readyz").send());
                    Future<HttpResponse<Buffer>> metrics = ready.compose(r ->
                            client.get(started.metricsPort(), "127.0.0.1", "/metrics").send());
                    return metrics.map(m -> new Replies(webhook.result(), ready.result(), m))
                            .andThen(done -> client.close());
                });
        finish(ctx, flow, replies -> {
            assertThat(replies.webhook().bodyAsJsonObject().getJsonObject("response").getString("patchType"))
                    .isEqualTo("JSONPatch");
            assertThat(replies.ready().statusCode()).isEqualTo(200);
            assertThat(replies.metrics().bodyAsString())
                    .contains("vgpu_webhook_duration_seconds_count{outcome=\"allowed\",replica=\"test-replica\"}");
            assertThat(Promtool.findings(replies.metrics().bodyAsString())).as("promtool check metrics").isEmpty();
        });
    }

    /**
     * Closes what the test started, on the test thread: {@link RunningGateway#closeAndWait} is what the SIGTERM hook
     * calls, from a thread that is no Vert.x thread.
     */
    @AfterEach
    void closesQuickly() {
        if (running == null) {
            return;
        }
        long start = System.nanoTime();
        running.closeAndWait(Duration.ofSeconds(10));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));
    }

    private record Replies(HttpResponse<Buffer> webhook, HttpResponse<Buffer> ready, HttpResponse<Buffer> metrics) {
    }
}
