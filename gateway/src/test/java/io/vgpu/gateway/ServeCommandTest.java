package io.vgpu.gateway;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vgpu.gateway.http.TestGateway;
import io.vgpu.gateway.metrics.Promtool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The {@code serve} composition root: fail-fast configuration and the wired listeners. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class ServeCommandTest {

    static final String GPU_POD_REVIEW = """
            {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"serve-1","namespace":"ns",
             "object":{"metadata":{"name":"p","namespace":"ns"},
                       "spec":{"containers":[{"name":"c","resources":{"limits":{"nvidia.com/gpu":"1"}}}]}}}}""";

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
    void startsTheWebhookHealthAndMetricsListenersAndClosesQuickly() throws Exception {
        // blocking on the test thread: Running.close() is what the SIGTERM hook calls, from a non-Vert.x thread
        RunningGateway running = await(GatewayAssembly.start(TestGateway.config(), TestGateway.withoutKubernetes()));
        try {
            WebClient client = WebClient.create(running.vertx());
            HttpResponse<Buffer> webhook = await(client.post(running.apiPort(), "127.0.0.1", "/webhook")
                    .putHeader("Content-Type", "application/json").sendBuffer(Buffer.buffer(GPU_POD_REVIEW)));
            HttpResponse<Buffer> ready = await(client.get(running.apiPort(), "127.0.0.1", "/readyz").send());
            HttpResponse<Buffer> metrics = await(client.get(running.metricsPort(), "127.0.0.1", "/metrics").send());
            client.close();
            assertThat(webhook.bodyAsJsonObject().getJsonObject("response").getString("patchType")).isEqualTo("JSONPatch");
            assertThat(ready.statusCode()).isEqualTo(200);
            assertThat(metrics.bodyAsString())
                    .contains("vgpu_webhook_duration_seconds_count{outcome=\"allowed\",replica=\"test-replica\"}");
            assertThat(Promtool.findings(metrics.bodyAsString())).as("promtool check metrics").isEmpty();
        } finally {
            long start = System.nanoTime();
            running.closeAndWait(Duration.ofSeconds(10));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));
        }
    }

    private static <T> T await(Future<T> future) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
