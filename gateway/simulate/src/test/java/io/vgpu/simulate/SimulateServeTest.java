package io.vgpu.simulate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.testsupport.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.vgpu.state.model.fixtures.GpuFixtures.card;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code simulate --serve}: the endpoints and the simulated cluster are up, usable with the printed examples, and
 * stop; as a test target (issue 10 item 7) it preloads a directory of recorded pods and nodes with their own UIDs, so
 * that a recorded kube-scheduler session replays against it, and takes the gateway's local {@code VGPU_*} settings
 * and {@code --max-in-flight}.
 */
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

    @Test
    void replaysARecordedSessionOnPreloadedPodsWithTheLocalSettingsOfTheEnvironment(@TempDir Path dir)
            throws Exception {
        // what a real cluster holds: a GPU node registered by its device plugin, two pending GPU pods with their UIDs
        String register = NodeRegisterCodec.encode(List.of(card("GPU-recorded-0").memMiB(40960).type("NVIDIA-A100-SXM4-40GB").build()));
        Files.writeString(dir.resolve("nodes.json"), "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[{\"apiVersion\":"
                + "\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"recorded-node\",\"annotations\":{\""
                + HamiAnnotations.NODE_NVIDIA_REGISTER + "\":" + JSON.writeValueAsString(register) + "}},\"status\":"
                + "{\"allocatable\":{\"nvidia.com/gpu\":\"10\"}}}]}");
        Files.writeString(dir.resolve("pods.yaml"), recordedPod("rec-a", "0b6e1c2a-0000-4000-8000-00000000000a")
                + "---\n" + recordedPod("rec-b", "0b6e1c2a-0000-4000-8000-00000000000b"));
        Files.writeString(dir.resolve("README.txt"), "not a manifest: ignored");
        SimulateCommand command = new SimulateCommand();
        command.environment = Map.of("VGPU_NODE_LOCK_WAIT", "4s", "VGPU_HTTP_PORT", "1", "HOME", "/root");
        new CommandLine(command).parseArgs("--serve", "--nodes", "1", "--gpus-per-node", "1", "--pods",
                dir.toString(), "--max-in-flight", "1", "--device-plugin-delay", "60000");
        StringWriter printed = new StringWriter();
        try (SimulatedCluster cluster = command.startServing(new PrintWriter(printed, true), command.cluster())) {
            assertThat(printed.toString()).contains("VGPU_MAX_IN_FLIGHT=1", "VGPU_NODE_LOCK_WAIT=4s",
                    "not passed on       VGPU_HTTP_PORT", "preloaded           2 pods, 1 nodes", "recorded-node");
            Pod a = cluster.client().pods().inNamespace("team").withName("rec-a").get();
            Pod b = cluster.client().pods().inNamespace("team").withName("rec-b").get();
            assertThat(a.getMetadata().getUid()).isEqualTo("0b6e1c2a-0000-4000-8000-00000000000a");
            assertThat(b.getMetadata().getUid()).isEqualTo("0b6e1c2a-0000-4000-8000-00000000000b");

            // the recorded session: filter names the recorded node, bind names the recorded UID
            String gateway = cluster.gatewayUrl();
            JsonNode filter = awaitFilter(gateway, a);
            assertThat(filter.path("NodeNames").get(0).asText()).isEqualTo("recorded-node");
            assertThat(bind(gateway, a).path("Error").asText()).isEmpty();
            assertThat(cluster.apiServer().bindings()).anySatisfy(r -> {
                assertThat(r.pod()).isEqualTo("rec-a");
                assertThat(r.status()).isEqualTo(201);
            });

            // --max-in-flight 1: while rec-b's bind waits for the node lock (the device plugin holds it), another
            // bind is answered "overloaded" at once
            assertThat(awaitFilter(gateway, b).path("NodeNames").get(0).asText()).isEqualTo("recorded-node");
            CompletableFuture<HttpResponse<String>> waiting = http.sendAsync(bindRequest(gateway, b),
                    HttpResponse.BodyHandlers.ofString());
            awaitMetric(cluster.metricsUrl(), "vgpu_http_in_flight{endpoint=\"/bind\",replica=\"simulate\"} 1.0");
            assertThat(bind(gateway, a).path("Error").asText()).isEqualTo("overloaded");
            Eventually.within(Duration.ofSeconds(30), "rec-b's bind answered", waiting::isDone);
            assertThat(JSON.readTree(waiting.getNow(null).body()).path("Error").asText())
                    .as("rec-b's bind gave up after VGPU_NODE_LOCK_WAIT").isNotEmpty();
        }
    }

    private static String recordedPod(String name, String uid) {
        return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name + "\n  namespace: team\n  uid: " + uid + "\n"
                + "spec:\n  schedulerName: hami-scheduler\n  containers:\n  - name: main\n    image: cuda\n"
                + "    resources:\n      limits:\n        nvidia.com/gpu: \"1\"\n        nvidia.com/gpumem: \"8192\"\n";
    }

    private JsonNode awaitFilter(String gateway, Pod pod) throws Exception {
        String args = "{\"Pod\":" + JSON.writeValueAsString(JSON.readTree(Serialization.asJson(pod))) + ",\"NodeNames\":[\"recorded-node\"]}";
        AtomicReference<JsonNode> answer = new AtomicReference<>();
        // the preloaded node registers through the gateway's informer, like any node
        Eventually.within(Duration.ofSeconds(30), "a filter that places the pod on recorded-node", () -> {
            try {
                answer.set(JSON.readTree(post(gateway + "/filter", args).body()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
            return answer.get().path("Error").asText().isEmpty() && answer.get().path("NodeNames").size() == 1;
        });
        return answer.get();
    }

    private HttpRequest bindRequest(String gateway, Pod pod) {
        String args = "{\"PodName\":\"" + pod.getMetadata().getName() + "\",\"PodNamespace\":\"team\",\"PodUID\":\""
                + pod.getMetadata().getUid() + "\",\"Node\":\"recorded-node\"}";
        return HttpRequest.newBuilder(URI.create(gateway + "/bind")).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(args)).build();
    }

    private JsonNode bind(String gateway, Pod pod) throws Exception {
        return JSON.readTree(http.send(bindRequest(gateway, pod), HttpResponse.BodyHandlers.ofString()).body());
    }

    private void awaitMetric(String metricsUrl, String line) {
        Eventually.within(Duration.ofSeconds(10), "metrics line " + line, () -> {
            try {
                return get(metricsUrl).body().contains(line);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        });
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
