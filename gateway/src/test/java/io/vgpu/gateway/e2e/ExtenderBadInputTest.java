package io.vgpu.gateway.e2e;

import io.fabric8.kubernetes.api.model.Pod;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.PodCharge;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static io.vgpu.gateway.e2e.E2eCluster.gpu;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bad and odd input per extender endpoint, against the real gateway: every answer is HTTP 200 with the verb's exact
 * JSON shape and the documented text, nothing crashes (no ERROR log), and nothing leaks: the node the case used
 * holds no reservation and no lock afterwards (in the shared state and on the Node), except what the case
 * legitimately leaves (a pod it bound).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ExtenderBadInputTest {

    private static final String NS = "bad-input";
    private static final String OK = "{\"Error\":\"\"}";
    private static final AtomicInteger NODES = new AtomicInteger();
    /** A well-formed UID of no pod. */
    private static final String UID = "0f8fad5b-d9cb-469f-a165-70867728950e";

    @RegisterExtension
    static final E2eGateway GATEWAY = new E2eGateway();

    private static E2eCluster cluster;

    @BeforeAll
    static void cluster() {
        cluster = GATEWAY.cluster();
    }

    // ------------------------------------------------------------------ /filter

    static Stream<Named<Case>> filterCases() {
        return Stream.of(
                named("malformed JSON", raw("{\"Pod\":"), filterErrorMatching("invalid JSON: .+"), true),
                named("empty body", raw(""), exactly(filterError("EOF"))),
                named("JSON that is not an object", raw("[]"),
                        exactly(filterError("json: cannot unmarshal array into Go value of type v1.ExtenderArgs"))),
                named("Pod is a string", raw("{\"Pod\":\"x\",\"NodeNames\":[\"n\"]}"),
                        exactly(filterError("json: cannot unmarshal string into Go struct field ExtenderArgs.Pod of "
                                + "type v1.Pod"))),
                named("NodeNames is a string", c -> "{\"Pod\":" + podJson(c.admit("p")) + ",\"NodeNames\":\""
                        + c.node() + "\"}", exactly(filterError("json: cannot unmarshal string into Go struct field "
                        + "ExtenderArgs.NodeNames of type []string"))),
                named("NodeNames holds a number", c -> "{\"Pod\":" + podJson(c.admit("p")) + ",\"NodeNames\":[7]}",
                        exactly(filterError("json: cannot unmarshal number into Go struct field "
                                + "ExtenderArgs.NodeNames of type string"))),
                named("no Pod", c -> "{\"NodeNames\":[\"" + c.node() + "\"]}",
                        exactly(filterError("extender args missing pod"))),
                named("Pod null", c -> "{\"Pod\":null,\"Nodes\":null,\"NodeNames\":[\"" + c.node() + "\"]}",
                        exactly(filterError("extender args missing pod"))),
                named("unknown node", c -> cluster.filterBody(c.admit("p"), "no-such-node"),
                        exactly("{\"Nodes\":null,\"NodeNames\":null,\"FailedNodes\":{\"no-such-node\":"
                                + "\"node unregistered\"},\"FailedAndUnresolvableNodes\":null,\"Error\":\"\"}")),
                named("corrupted register annotation", c -> {
                    String corrupt = c.node() + "-corrupt";
                    cluster.createNode(corrupt, "[{\"id\":\"GPU-x\",\"count\":\"ten\"", 1);
                    // a node created after it registers: the informer has handled the corrupt one (in order)
                    cluster.registeredNode(corrupt + "-after", gpu("GPU-" + corrupt + "-after", 0, 32768));
                    return cluster.filterBody(c.admit("p"), corrupt, c.node());
                }, c -> "{\"Nodes\":null,\"NodeNames\":[\"" + c.node() + "\"],\"FailedNodes\":null,"
                        + "\"FailedAndUnresolvableNodes\":null,\"Error\":\"\"}", List.of("p")),
                named("body over 1 MiB", c -> oversized(cluster.filterBody(c.admit("p"), c.node())),
                        exactly(filterError("request body exceeds 1048576 bytes"))),
                named("pod without GPU request", c -> cluster.filterBody(c.admitWithoutGpu("p"), c.node(), "x"),
                        c -> "{\"Nodes\":null,\"NodeNames\":[\"" + c.node() + "\",\"x\"],\"FailedNodes\":null,"
                                + "\"FailedAndUnresolvableNodes\":null,\"Error\":\"\"}", List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("filterCases")
    void filterAnswersBadInputInTheExtenderShape(Case c) {
        exchange("/filter", c);
    }

    // ------------------------------------------------------------------ /bind

    static Stream<Named<Case>> bindCases() {
        return Stream.of(
                named("malformed JSON", raw("{\"PodName\":"),
                        Pattern.quote("{\"Error\":\"invalid JSON: ") + ".+" + Pattern.quote("\"}"), true),
                named("empty body", raw(""), exactly("{\"Error\":\"EOF\"}")),
                named("JSON that is not an object", raw("\"bind\""), exactly("{\"Error\":\"json: cannot unmarshal "
                        + "string into Go value of type v1.ExtenderBindingArgs\"}")),
                named("PodName is a number", c -> "{\"PodName\":1,\"PodNamespace\":\"" + NS + "\",\"PodUID\":\""
                        + UID + "\",\"Node\":\"" + c.node() + "\"}", exactly("{\"Error\":\"json: cannot unmarshal number into "
                        + "Go struct field ExtenderBindingArgs.PodName of type string\"}")),
                named("unknown pod", c -> "{\"PodName\":\"x\",\"PodNamespace\":\"" + NS + "\",\"PodUID\":\""
                        + UID + "\",\"Node\":\"" + c.node() + "\"}", exactly("{\"Error\":\"pod \\\"x\\\" not found\"}")),
                named("unknown node (the reservation is dropped)", c -> E2eCluster.bindBody(c.filtered("p"),
                        "no-such-node"), exactly("{\"Error\":\"node \\\"no-such-node\\\" not found\"}")),
                named("no reservation: never filtered", c -> E2eCluster.bindBody(c.admit("p"), c.node()),
                        c -> "{\"Error\":\"cannot bind " + NS + "/" + c.podName("p") + " to " + c.node()
                                + ": no reservation (filter first)\"}", List.of()),
                named("duplicate bind", c -> {
                    Pod p = c.filtered("p");
                    assertThat(cluster.bind(p, c.node()).body()).isEqualTo(OK);
                    return E2eCluster.bindBody(p, c.node());
                }, c -> OK, List.of("p")),
                named("bound to another node already", c -> {
                    Pod p = c.filtered("p");
                    assertThat(cluster.bind(p, c.node()).body()).isEqualTo(OK);
                    cluster.pluginAllocates(c.node(), p);
                    cluster.registeredNode(c.other(), gpu("GPU-" + c.other(), 0, 32768));
                    return E2eCluster.bindBody(p, c.other());
                }, c -> "{\"Error\":\"pod " + NS + "/" + c.podName("p") + " is already bound to node " + c.node()
                        + "\"}", List.of("p")),
                named("body over 1 MiB", c -> oversized(E2eCluster.bindBody(c.filtered("p"), c.node())),
                        c -> "{\"Error\":\"request body exceeds 1048576 bytes\"}", List.of("p")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindCases")
    void bindAnswersBadInputInTheExtenderShape(Case c) {
        exchange("/bind", c);
    }

    // ------------------------------------------------------------------ the exchange

    private static void exchange(String path, Case c) {
        Context context = new Context("bad-" + NODES.incrementAndGet());
        cluster.registeredNode(context.node(), gpu("GPU-" + context.node(), 0, 32768));
        String body = c.request().apply(context);

        E2eCluster.Reply reply = cluster.post(path, body.getBytes(StandardCharsets.UTF_8));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.contentType()).startsWith("application/json");
        String expected = c.expected().apply(context);
        if (c.regex()) {
            assertThat(reply.body()).matches(Pattern.compile(expected, Pattern.DOTALL));
        } else {
            assertThat(reply.body()).isEqualTo(expected);
        }
        assertNothingLeaked(context, c.leftOver());
    }

    /** The case's node holds exactly the charges the case means to leave, and no lock unless one of them holds it. */
    private static void assertNothingLeaked(Context context, List<String> leftOver) {
        Map<String, String> expected = new TreeMap<>();
        leftOver.forEach(p -> expected.put(context.podName(p), "any"));
        NodeState state = cluster.nodeState(context.node());
        Map<String, String> charged = new TreeMap<>();
        state.charges().values().forEach(ch -> charged.put(ch.podName(), ch instanceof PodCharge.Bound ? "bound"
                : "reserved"));
        assertThat(charged.keySet()).as("pods charged on " + context.node()).isEqualTo(expected.keySet());
        String lock = cluster.nodeLock(context.node());
        if (state.lock() == null) {
            assertThat(lock).as("node lock annotation").isNull();
        } else {
            assertThat(expected).containsKey(state.lock().name());
            assertThat(lock).endsWith("," + NS + "," + state.lock().name());
        }
    }

    // ------------------------------------------------------------------ cases

    /**
     * One row.
     *
     * @param request  builds the request body (may create pods, filter, bind)
     * @param expected the answer expected, exact or a regex
     * @param regex    whether {@code expected} is a regex
     * @param leftOver pods (short names) the case leaves charged on its node
     */
    record Case(Function<Context, String> request, Function<Context, String> expected, boolean regex,
                List<String> leftOver) {
    }

    /**
     * What a case works with: its own registered node (one 32768 MiB card) and pods named after it.
     *
     * @param node the node
     */
    record Context(String node) {

        /** A second node, registered by the case when it needs one. */
        String other() {
            return node + "-other";
        }

        String podName(String shortName) {
            return node + "-" + shortName;
        }

        Pod admit(String shortName) {
            return cluster.admit(NS, podName(shortName), "20000");
        }

        Pod admitWithoutGpu(String shortName) {
            return cluster.admit(E2eCluster.pod(NS, podName(shortName), null).build());
        }

        /** Admitted and filtered onto this node. */
        Pod filtered(String shortName) {
            Pod p = admit(shortName);
            assertThat(cluster.filter(p, node).json().path("NodeNames").path(0).asText()).isEqualTo(node);
            return cluster.pod(p);
        }
    }

    private static Named<Case> named(String name, Function<Context, String> request, String expected) {
        return Named.of(name, new Case(request, c -> expected, false, List.of()));
    }

    private static Named<Case> named(String name, Function<Context, String> request, String expectedRegex,
                                     boolean regex) {
        return Named.of(name, new Case(request, c -> expectedRegex, regex, List.of()));
    }

    private static Named<Case> named(String name, Function<Context, String> request,
                                     Function<Context, String> expected, List<String> leftOver) {
        return Named.of(name, new Case(request, expected, false, leftOver));
    }

    private static Function<Context, String> raw(String body) {
        return c -> body;
    }

    private static String exactly(String s) {
        return s;
    }

    private static String filterError(String message) {
        return "{\"Nodes\":null,\"NodeNames\":null,\"FailedNodes\":null,\"FailedAndUnresolvableNodes\":null,"
                + "\"Error\":\"" + message + "\"}";
    }

    private static String filterErrorMatching(String messageRegex) {
        return Pattern.quote("{\"Nodes\":null,\"NodeNames\":null,\"FailedNodes\":null,"
                + "\"FailedAndUnresolvableNodes\":null,\"Error\":\"") + messageRegex + Pattern.quote("\"}");
    }

    private static String podJson(Pod pod) {
        return cluster.kube().getKubernetesSerialization().asJson(pod);
    }

    /** The request padded past 1 MiB with whitespace (still valid JSON, so only the size is wrong). */
    private static String oversized(String json) {
        char[] pad = new char[1024 * 1024];
        Arrays.fill(pad, ' ');
        return json.substring(0, json.length() - 1) + new String(pad) + "}";
    }
}
