package io.vgpu.gateway.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.vgpu.state.model.NodeState;
import io.vgpu.testsupport.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import static io.vgpu.gateway.e2e.E2eCluster.gpu;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bounded fuzz run over {@code /webhook}, {@code /filter} and {@code /bind} of a real gateway ({@link FuzzInputs}:
 * 1,000 adversarial requests from a seed, 8 in flight; {@code -Dvgpu.fuzz.seed} and {@code -Dvgpu.fuzz.requests}
 * change them). Every answer: no 5xx, the protocol's shape (an AdmissionReview; an ExtenderFilterResult with exactly
 * its five fields; an ExtenderBindingResult), p99 latency within 1 s and none over 5 s. Afterwards a valid filter and
 * bind still succeed, and the shared state charges no pod that was never admitted. No ERROR is logged (the fixture
 * checks). A failure names the seed, the request and the answer.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EndpointFuzzTest {

    private static final String NS = "fuzz-valid";
    private static final List<String> NODES = List.of("fuzz-a", "fuzz-b");
    private static final int IN_FLIGHT = 8;
    private static final List<String> FILTER_FIELDS = List.of("Nodes", "NodeNames", "FailedNodes",
            "FailedAndUnresolvableNodes", "Error");

    @RegisterExtension
    static final E2eGateway GATEWAY = new E2eGateway();

    @Test
    void adversarialRequestsAreAnsweredInTheProtocolQuicklyAndLeaveNothingBehind() throws Exception {
        E2eCluster cluster = GATEWAY.cluster();
        long seed = Long.getLong("vgpu.fuzz.seed", 20261201L);
        int requests = Integer.getInteger("vgpu.fuzz.requests", 1_000);
        cluster.registeredNode(NODES.get(0), gpu("GPU-fuzz-a0", 0, 32768), gpu("GPU-fuzz-a1", 1, 32768));
        cluster.registeredNode(NODES.get(1), gpu("GPU-fuzz-b0", 0, 16384));
        Set<String> admitted = Collections.synchronizedSet(new HashSet<>());

        List<Outcome> outcomes = fuzz(cluster, new FuzzInputs(seed, NODES), requests);

        List<String> problems = new ArrayList<>();
        for (Outcome o : outcomes) {
            String problem = o.problem();
            if (problem != null) {
                problems.add(problem + " [" + o.request().label() + " to " + o.request().endpoint() + " as "
                        + o.request().contentType() + ": " + preview(o.request().body()) + "] → " + o.reply());
            }
        }
        long[] millis = outcomes.stream().mapToLong(Outcome::millis).sorted().toArray();
        long p99 = millis[(int) Math.ceil(millis.length * 0.99) - 1];
        long max = millis[millis.length - 1];
        System.out.printf("fuzz seed %d: %d requests, p50 %d ms, p99 %d ms, max %d ms, by kind %s; slowest %s%n",
                seed, millis.length, millis[millis.length / 2], p99, max, byLabel(outcomes), slowest(outcomes, 12));
        assertThat(problems).as("seed " + seed).isEmpty();

        // the gateway still works: a valid pod is filtered and bound
        cluster.registeredNode("fuzz-after", gpu("GPU-fuzz-after", 0, 32768));
        Pod pod = cluster.admit(NS, "after-fuzz", "1000");
        admitted.add(pod.getMetadata().getUid());
        assertThat(cluster.filter(pod, "fuzz-after").json().path("NodeNames").path(0).asText())
                .isEqualTo("fuzz-after");
        assertThat(cluster.bind(cluster.pod(pod), "fuzz-after").body()).isEqualTo("{\"Error\":\"\"}");
        cluster.pluginAllocates("fuzz-after", pod);
        // and no pod that was never admitted holds a charge (a filter's reservation for a pod the API does not know
        // is undone when its annotation fails; give those undos their moment)
        cluster.eventually("no charge for a pod that was never admitted: " + strangers(cluster, admitted),
                () -> strangers(cluster, admitted).isEmpty());
        // and every answer came in time
        assertThat(p99).as("p99 ms, seed " + seed).isLessThanOrEqualTo(1_000);
        assertThat(max).as("max ms, seed " + seed + ", slowest " + slowest(outcomes, 1)).isLessThanOrEqualTo(5_000);
    }

    /** What one request got. */
    private record Outcome(FuzzInputs.Request request, E2eCluster.Reply reply, long millis, String failure) {

        /** What is wrong with the answer, or null. */
        String problem() {
            if (failure != null) {
                return "no answer: " + failure;
            }
            if (reply.status() >= 500) {
                return "HTTP " + reply.status();
            }
            JsonNode json;
            try {
                json = E2eCluster.JSON.readTree(reply.body());
            } catch (IOException e) {
                return "not JSON";
            }
            if (!reply.contentType().startsWith("application/json")) {
                return "content type " + reply.contentType();
            }
            return switch (request.endpoint()) {
                case "/webhook" -> review(reply.status(), json);
                case "/filter" -> filterResult(reply.status(), json);
                default -> reply.status() == 200 && json.isObject() && json.size() == 1 && json.path("Error").isTextual()
                        ? null : "not an ExtenderBindingResult";
            };
        }
    }

    /** An AdmissionReview answer: HTTP 200, or 400 when the review had no uid to echo (docs/hami-deviations.md). */
    private static String review(int status, JsonNode json) {
        JsonNode response = json.path("response");
        boolean shaped = json.path("kind").asText().equals("AdmissionReview")
                && json.path("apiVersion").asText().startsWith("admission.k8s.io/v1")
                && response.path("uid").isTextual() && response.path("allowed").isBoolean()
                && response.path("status").path("code").isInt()
                && (!response.has("patch") || response.path("patch").isTextual()
                && response.path("patchType").asText().equals("JSONPatch"));
        if (!shaped) {
            return "not an AdmissionReview";
        }
        boolean noUid = response.path("uid").asText().isEmpty() && response.path("status").path("code").asInt() == 400;
        return status == 200 || status == 400 && noUid ? null : "HTTP " + status;
    }

    private static String filterResult(int status, JsonNode json) {
        if (status != 200 || !json.isObject()) {
            return "HTTP " + status;
        }
        List<String> fields = new ArrayList<>();
        json.fieldNames().forEachRemaining(fields::add);
        boolean shaped = fields.equals(FILTER_FIELDS) && json.get("Error").isTextual()
                && (json.get("Nodes").isNull() || json.get("Nodes").isObject())
                && (json.get("NodeNames").isNull() || allText(json.get("NodeNames"), true))
                && (json.get("FailedNodes").isNull() || allText(json.get("FailedNodes"), false))
                && json.get("FailedAndUnresolvableNodes").isNull();
        return shaped ? null : "not an ExtenderFilterResult";
    }

    private static boolean allText(JsonNode node, boolean array) {
        if (array ? !node.isArray() : !node.isObject()) {
            return false;
        }
        for (JsonNode n : node) {
            if (!n.isTextual()) {
                return false;
            }
        }
        return true;
    }

    /** Sends every request, {@link #IN_FLIGHT} at a time, and times each. */
    private static List<Outcome> fuzz(E2eCluster cluster, FuzzInputs inputs, int requests) throws Exception {
        ConcurrentLinkedQueue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
        Semaphore slots = new Semaphore(IN_FLIGHT);
        List<CompletableFuture<Void>> sent = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            FuzzInputs.Request request = inputs.next();
            slots.acquire();
            long start = System.nanoTime();
            sent.add(cluster.postAsync(request.endpoint(), request.contentType(), request.body())
                    .handle((reply, e) -> {
                        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                        outcomes.add(new Outcome(request, reply, millis, e == null ? null : e.toString()));
                        slots.release();
                        return null;
                    }));
        }
        CompletableFuture<Void> all = CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new));
        Eventually.within(Duration.ofSeconds(60), "every fuzz request answered", all::isDone);
        return List.copyOf(outcomes);
    }

    /** Charges whose pod was never admitted: node → pod name. */
    private static Map<String, String> strangers(E2eCluster cluster, Set<String> admitted) {
        Map<String, String> out = new TreeMap<>();
        for (NodeState node : cluster.nodeStates()) {
            node.charges().forEach((uid, charge) -> {
                if (!admitted.contains(uid)) {
                    out.put(node.name() + " " + uid, charge.toString());
                }
            });
        }
        return out;
    }

    private static Map<String, Integer> byLabel(List<Outcome> outcomes) {
        Map<String, Integer> counts = new TreeMap<>();
        outcomes.forEach(o -> counts.merge(o.request().label(), 1, Integer::sum));
        return counts;
    }

    private static List<String> slowest(List<Outcome> outcomes, int n) {
        return outcomes.stream().sorted((a, b) -> Long.compare(b.millis(), a.millis())).limit(n)
                .map(o -> o.request().label() + " to " + o.request().endpoint() + " (" + o.request().body().length
                        + " bytes, " + o.millis() + " ms)").toList();
    }

    private static String preview(byte[] body) {
        String s = new String(body, 0, Math.min(body.length, 300), java.nio.charset.StandardCharsets.UTF_8);
        return body.length > 300 ? s + "… (" + body.length + " bytes)" : s;
    }
}
