package io.vgpu.gateway.simulate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Pod;
import io.vgpu.state.codec.HamiAnnotations;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code simulate --serve}: the endpoints and the simulated cluster are up, usable with the printed examples, and stop. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class SimulateServeTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    void servesTheEndpointsPrintsHowToUseThemAndStopsWhenClosed() throws Exception {
        SimulateCommand command = new SimulateCommand();
        new CommandLine(command).parseArgs("--serve", "--nodes", "3", "--gpus-per-node", "2");
        StringWriter printed = new StringWriter();
        String gateway;
        try (SimulatedCluster cluster = command.startServing(new PrintWriter(printed, true), command.cluster())) {
            String out = printed.toString();
            gateway = cluster.gatewayUrl();
            assertThat(out).contains(gateway + "/webhook", gateway + "/filter", gateway + "/bind", gateway + "/healthz",
                    cluster.metricsUrl(), cluster.apiServer().url(), cluster.kubeconfig().toString(),
                    "gpu-node-0001 gpu-node-0002 gpu-node-0003");
            assertThat(Files.readString(cluster.kubeconfig())).contains("server: " + cluster.apiServer().url());

            assertThat(get(gateway + "/healthz").statusCode()).isEqualTo(200);
            assertThat(get(gateway + "/readyz").statusCode()).isEqualTo(200);
            assertThat(get(cluster.metricsUrl()).body()).contains("vgpu_http_in_flight");

            // the printed example: the demo pod waits in the API server; filter it, then bind it
            Path filterArgs = cluster.kubeconfig().resolveSibling("filter.json");
            assertThat(out).contains("-d @" + filterArgs + " " + gateway + "/filter");
            JsonNode filter = JSON.readTree(post(gateway + "/filter", Files.readString(filterArgs)).body());
            assertThat(filter.path("Error").asText()).isEmpty();
            assertThat(filter.path("NodeNames")).hasSize(1);
            String node = filter.path("NodeNames").get(0).asText();
            Matcher bindExample = Pattern.compile("-d '(\\{\"PodName\".*\\})' " + Pattern.quote(gateway + "/bind"))
                    .matcher(out);
            assertThat(bindExample.find()).isTrue();
            String bindArgs = bindExample.group(1).replace("<the node /filter chose>", node);
            JsonNode bind = JSON.readTree(post(gateway + "/bind", bindArgs).body());
            assertThat(bind.path("Error").asText()).isEmpty();
            assertThat(cluster.apiServer().bindings()).anySatisfy(b -> {
                assertThat(b.pod()).isEqualTo("demo");
                assertThat(b.node()).isEqualTo(node);
                assertThat(b.status()).isEqualTo(201);
            });
            // the simulated device plugin reports the pod allocated and releases the node lock
            assertThat(cluster.awaitDevicePlugin(1, Duration.ofSeconds(10))).isTrue();
            assertThat(cluster.devicePlugin().unlocked()).isEqualTo(1);
            Pod demo = cluster.client().pods().inNamespace("default").withName("demo").get();
            assertThat(demo.getSpec().getNodeName()).isEqualTo(node);
            assertThat(demo.getMetadata().getAnnotations()).containsEntry(HamiAnnotations.BIND_PHASE, "success");
            // the mock keeps a key merged to null where a real API server deletes it; both read as "no lock"
            assertThat(cluster.client().nodes().withName(node).get().getMetadata().getAnnotations()
                    .get(HamiAnnotations.NODE_LOCK)).isNull();
        }
        assertThatThrownBy(() -> get(gateway + "/healthz")).isInstanceOf(IOException.class);
    }

    private HttpResponse<String> get(String url) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String url, String body) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
