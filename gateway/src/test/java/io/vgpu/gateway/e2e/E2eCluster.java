package io.vgpu.gateway.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.vertx.core.VertxOptions;
import io.vgpu.gateway.GatewayLauncher;
import io.vgpu.gateway.conformance.JsonPatchApplier;
import io.vgpu.gateway.core.webhook.PatchOp;
import io.vgpu.gateway.kube.KubeClientConfig;
import io.vgpu.gateway.kube.MockApiServer;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.store.HazelcastMemberConfig;
import io.vgpu.state.model.fixtures.GpuFixtures;
import io.vgpu.testsupport.Eventually;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

import javax.net.ssl.SSLContext;

/**
 * The end-to-end fixture: the real gateway ({@code GatewayAssembly.start}, production wiring) against the fabric8
 * CRUD mock API server ({@link MockApiServer}: binding subresource, recorded requests), one embedded Hazelcast
 * member on a free loopback port with a random cluster name, plain HTTP on a free port. The gateway reaches
 * the mock through a kubeconfig file ({@code VGPU_KUBECONFIG}) as it would reach a real cluster.
 *
 * <p>Plays the parts the mock does not: the API server's admission step ({@link #admit}: POST /webhook, apply the
 * returned JSONPatch, create the pod), kube-scheduler ({@link #filter}, {@link #bind}) and the HAMi device plugin
 * ({@link #pluginAllocates}). Every HTTP verb comes in two forms: {@code fooAsync} answers a future, {@code foo} waits
 * for that future's answer on the test thread (never an event loop) by polling it with a bound ({@link #answered}),
 * never by a blocking get. Tests share one fixture per class: each uses its own namespace and node names.
 */
final class E2eCluster implements AutoCloseable {

    static final String SCHEDULER = "hami-scheduler";
    /** Kept in fields: java.util.logging holds loggers weakly, and both libraries log every request at INFO. */
    private static final List<Logger> QUIET = List.of(Logger.getLogger("com.hazelcast"),
            Logger.getLogger("io.fabric8.mockwebserver"));

    static {
        QUIET.forEach(l -> l.setLevel(Level.WARNING));
    }

    static final ObjectMapper JSON = new ObjectMapper();
    /** A memory request larger than any card here: used to probe registration without reserving anything. */
    private static final String PROBE_MEM = "999999";
    private static final Duration WAIT = Duration.ofSeconds(10);
    /** An HTTP call's bound: the clients' own request timeout is 30 s. */
    private static final Duration ANSWER = Duration.ofSeconds(35);
    /** Loopback answers take milliseconds: the default 50 ms poll would add about 50 ms to each waiting verb. */
    private static final Duration ANSWER_POLL = Duration.ofMillis(2);
    private static final Duration QUIET_FOR = Duration.ofMillis(250);
    private static final Duration QUIET_AT_MOST = Duration.ofSeconds(3);

    private final MockApiServer api;
    private final KubernetesClient kube;
    private final Path kubeconfig;
    private final GatewayLauncher.Handle gateway;
    private final String hazelcastCluster;
    private final HttpClient http;
    private final String scheme;
    private final HttpClient metricsHttp = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1).build();

    private E2eCluster(MockApiServer api, KubernetesClient kube, Path kubeconfig, GatewayLauncher.Handle gateway,
                       String hazelcastCluster, SSLContext tls) {
        HttpClient.Builder client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5));
        this.http = tls == null ? client.build() : client.sslContext(tls).build();
        this.scheme = tls == null ? "http" : "https";
        this.api = api;
        this.hazelcastCluster = hazelcastCluster;
        this.kube = kube;
        this.kubeconfig = kubeconfig;
        this.gateway = gateway;
    }

    /**
     * How the gateway is started beyond its {@code VGPU_*} settings.
     *
     * @param vertxOptions   the options its Vert.x starts from
     * @param kubeconfigUser the kubeconfig's user entry, as a YAML flow mapping (e.g. an {@code exec} plugin)
     */
    record Launch(VertxOptions vertxOptions, String kubeconfigUser) {

        /** Vert.x defaults, a user without credentials. */
        static Launch defaults() {
            return new Launch(new VertxOptions(), "{}");
        }
    }

    /**
     * Starts the mock API server and the gateway, and waits for {@code /readyz} 200.
     *
     * @param env extra {@code VGPU_*} settings: KEY, value, KEY, value, …
     */
    static E2eCluster start(String... env) throws Exception {
        return start(null, Launch.defaults(), env);
    }

    /** {@link #start(String...)} launched as {@code launch} says. */
    static E2eCluster start(Launch launch, String... env) throws Exception {
        return start(null, launch, env);
    }

    /**
     * {@link #start(String...)} over HTTPS when {@code tls} is given: the gateway's TLS files come in {@code env}, and
     * this fixture calls it with {@code tls} (whose key manager is the caller's identity, e.g. kube-scheduler's).
     */
    static E2eCluster start(SSLContext tls, String... env) throws Exception {
        return start(tls, Launch.defaults(), env);
    }

    /** {@link #start(SSLContext, String...)} launched as {@code launch} says. */
    static E2eCluster start(SSLContext tls, Launch launch, String... env) throws Exception {
        MockApiServer api = MockApiServer.start();
        Path kubeconfig = null;
        GatewayLauncher.Handle gateway = null;
        try {
            kubeconfig = writeKubeconfig(api.config().getMasterUrl(), launch.kubeconfigUser());
            String hazelcastCluster = "vgpu-e2e-" + UUID.randomUUID();
            Map<String, String> vars = new HashMap<>(Map.of(
                    "VGPU_PLAIN_HTTP", "true",
                    "VGPU_BIND_ADDRESS", "127.0.0.1",
                    "VGPU_HTTP_PORT", "0",
                    "VGPU_METRICS_PORT", "0",
                    "VGPU_SHUTDOWN_TIMEOUT", "1s",
                    "VGPU_NODE_LOCK_WAIT", "8s",
                    "VGPU_KUBECONFIG", kubeconfig.toString(),
                    "VGPU_HZ_PORT", Integer.toString(freePort()),
                    "VGPU_HZ_CLUSTER_NAME", hazelcastCluster,
                    "POD_NAME", "e2e-replica"));
            vars.put("VGPU_HZ_BACKUP_COUNT", "0");
            for (int i = 0; i + 1 < env.length; i += 2) {
                vars.put(env[i], env[i + 1]);
            }
            if (tls != null) {
                vars.remove("VGPU_PLAIN_HTTP");
            }
            gateway = GatewayLauncher.start(vars, Duration.ofSeconds(60), launch.vertxOptions());
            E2eCluster cluster = new E2eCluster(api, api.client(new KubeClientConfig(null, null, 0, 1,
                    Duration.ofSeconds(5), 256, Duration.ofSeconds(1), 0)), kubeconfig, gateway, hazelcastCluster, tls);
            cluster.eventually("/readyz answers 200", () -> cluster.get("/readyz").status() == 200);
            return cluster;
        } catch (Exception | Error e) {
            if (gateway != null) {
                gateway.close();
            }
            api.close();
            if (kubeconfig != null) {
                Files.deleteIfExists(kubeconfig);
            }
            throw e;
        }
    }

    /** The mock API server (recorded requests and bindings). */
    MockApiServer api() {
        return api;
    }

    /** A client of the mock API server, for the test's own reads and writes. */
    KubernetesClient kube() {
        return kube;
    }

    /**
     * Stops the gateway, then the mock. First waits until the mock has had no request for a moment: the CRUD mock
     * blocks its event loop while a watch closes until that watch's pending event sends finish, and those sends need
     * the same event loop, so a watch closed right after a write stalls the mock's shutdown for 20 s.
     */
    @Override
    public void close() throws IOException {
        awaitQuietApi();
        try {
            gateway.close();
        } finally {
            kube.close();
            api.close();
            Files.deleteIfExists(kubeconfig);
        }
    }

    /** Until the mock has seen no new request for {@link #QUIET_FOR}, or {@link #QUIET_AT_MOST} has passed. */
    private void awaitQuietApi() {
        long start = System.nanoTime();
        long[] lastChange = {start};
        int[] seen = {api.requests().size()};
        Eventually.within(QUIET_AT_MOST.plusSeconds(1), "the mock API server quiet or given up on", () -> {
            long now = System.nanoTime();
            int requests = api.requests().size();
            if (requests != seen[0]) {
                seen[0] = requests;
                lastChange[0] = now;
            }
            return now - lastChange[0] >= QUIET_FOR.toNanos() || now - start >= QUIET_AT_MOST.toNanos();
        });
    }

    // ------------------------------------------------------------------ nodes

    /** One V100-like card: 10 slots, {@code memMiB}, 100 cores, healthy, NUMA 0. */
    static GpuDevice gpu(String uuid, int index, int memMiB) {
        return GpuFixtures.card(uuid).index(index).memMiB(memMiB).build();
    }

    /** Creates a node registered by the (simulated) device plugin and waits until the gateway schedules on it. */
    void registeredNode(String name, GpuDevice... devices) {
        createNode(name, NodeRegisterCodec.encode(List.of(devices)), devices.length);
        awaitRegistered(name);
    }

    /** Creates a node with {@code register} as its {@code hami.io/node-nvidia-register} annotation (may be junk). */
    void createNode(String name, String register, int allocatableGpus) {
        Map<String, String> annotations = new LinkedHashMap<>();
        if (register != null) {
            annotations.put(HamiAnnotations.NODE_NVIDIA_REGISTER, register);
        }
        Node node = new NodeBuilder().withNewMetadata().withName(name).withAnnotations(annotations).endMetadata()
                .withNewStatus().addToAllocatable("nvidia.com/gpu", new Quantity(Integer.toString(allocatableGpus)))
                .addToAllocatable("cpu", new Quantity("16")).endStatus().build();
        kube.nodes().resource(node).create();
    }

    /** Waits until {@code /filter} no longer answers {@code node unregistered} for these nodes (nothing reserved). */
    void awaitRegistered(String... nodes) {
        Pod probe = pod("e2e-probe", "probe-" + UUID.randomUUID(), PROBE_MEM).build();
        probe.getMetadata().setUid(UUID.randomUUID().toString());
        probe.getSpec().setSchedulerName(SCHEDULER);
        eventually("nodes registered: " + List.of(nodes), () -> {
            JsonNode failed = filter(probe, nodes).json().path("FailedNodes");
            for (String n : nodes) {
                if (!failed.has(n) || failed.path(n).asText().equals("node unregistered")) {
                    return false;
                }
            }
            return true;
        });
    }

    /** The node as stored in the API. */
    Node node(String name) {
        return kube.nodes().withName(name).get();
    }

    /**
     * The authoritative shared state of a node, read from the gateway's own Hazelcast member (it runs in this JVM):
     * charges per pod UID and the lock holder; {@link NodeState#absent} when the key is missing.
     */
    NodeState nodeState(String name) {
        NodeState state = member().<String, NodeState>getMap(HazelcastMemberConfig.NODE_MAP).get(name);
        return state == null ? NodeState.absent(name) : state;
    }

    private HazelcastInstance member() {
        return Hazelcast.getAllHazelcastInstances().stream()
                .filter(h -> h.getConfig().getClusterName().equals(hazelcastCluster)).findFirst()
                .orElseThrow(() -> new AssertionError("the gateway's Hazelcast member is not running"));
    }

    /** Every node value of the shared state (registered or not), read from the gateway's own Hazelcast member. */
    List<NodeState> nodeStates() {
        return List.copyOf(member().<String, NodeState>getMap(HazelcastMemberConfig.NODE_MAP).values());
    }

    /** The node's {@code hami.io/mutex.lock}, or null. */
    String nodeLock(String name) {
        Map<String, String> a = node(name).getMetadata().getAnnotations();
        return a == null ? null : a.get(HamiAnnotations.NODE_LOCK);
    }

    // ------------------------------------------------------------------ pods

    /** A pod builder: one container asking for one GPU with {@code memMiB} of it. */
    static PodBuilder pod(String namespace, String name, String memMiB) {
        ContainerBuilder c = new ContainerBuilder().withName("cuda").withImage("nvidia/cuda");
        if (memMiB != null) {
            c.withNewResources().addToLimits("nvidia.com/gpu", new Quantity("1"))
                    .addToLimits("nvidia.com/gpumem", new Quantity(memMiB)).endResources();
        }
        return new PodBuilder().withNewMetadata().withNamespace(namespace).withName(name).endMetadata()
                .withNewSpec().withSchedulerName("default-scheduler").addToContainers(c.build()).endSpec();
    }

    /**
     * What the API server does with a new pod: POSTs its CREATE AdmissionReview to {@code /webhook}, applies the
     * returned JSONPatch (strict RFC 6902) and stores the result.
     *
     * @return the stored pod (with its UID)
     */
    Pod admit(Pod pod) {
        JsonNode object = tree(kube.getKubernetesSerialization().asJson(pod));
        ObjectNode review = JSON.createObjectNode().put("apiVersion", "admission.k8s.io/v1")
                .put("kind", "AdmissionReview");
        review.putObject("request").put("uid", UUID.randomUUID().toString()).put("namespace",
                pod.getMetadata().getNamespace()).put("operation", "CREATE").set("object", object);
        Reply reply = post("/webhook", review.toString());
        JsonNode response = reply.json().path("response");
        if (reply.status() != 200 || !response.path("allowed").asBoolean()) {
            throw new AssertionError("webhook refused the pod: " + reply.body());
        }
        JsonNode patched = response.has("patch")
                ? JsonPatchApplier.apply(object, patchOps(response.get("patch").asText())) : object;
        Pod admitted = kube.getKubernetesSerialization().unmarshal(patched.toString(), Pod.class);
        return kube.pods().inNamespace(pod.getMetadata().getNamespace()).resource(admitted).create();
    }

    /** {@link #admit} of {@link #pod}. */
    Pod admit(String namespace, String name, String memMiB) {
        return admit(pod(namespace, name, memMiB).build());
    }

    /** The pod as stored in the API, or null. */
    Pod pod(Pod pod) {
        return kube.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).get();
    }

    /** Deletes the pod from the API (watchers see it go). */
    void delete(Pod pod) {
        kube.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).delete();
    }

    /**
     * The HAMi device plugin's part after kubelet's {@code Allocate}: checks that the node lock names the pod,
     * sets {@code bind-phase=success} on the pod and removes the lock.
     */
    void pluginAllocates(String node, Pod pod) {
        String lock = nodeLock(node);
        String owner = "," + pod.getMetadata().getNamespace() + "," + pod.getMetadata().getName();
        if (lock == null || !lock.endsWith(owner)) {
            throw new AssertionError("node " + node + " lock " + lock + " does not name " + owner);
        }
        kube.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
                .patch(PatchContext.of(PatchType.JSON_MERGE),
                        "{\"metadata\":{\"annotations\":{\"hami.io/bind-phase\":\"success\"}}}");
        kube.nodes().withName(node).patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"metadata\":{\"annotations\":{\"hami.io/mutex.lock\":null}}}");
    }

    // ------------------------------------------------------------------ extender verbs

    /** kube-scheduler's {@code /filter} in cache mode: the pod as stored, and {@code NodeNames}. */
    Reply filter(Pod pod, String... nodeNames) {
        return post("/filter", filterBody(pod, nodeNames));
    }

    /** The same, without waiting for the answer. */
    CompletableFuture<Reply> filterAsync(Pod pod, String... nodeNames) {
        return postAsync("/filter", filterBody(pod, nodeNames));
    }

    /** The {@code ExtenderArgs} JSON kube-scheduler sends in cache mode ({@code nodeCacheCapable: true}). */
    String filterBody(Pod pod, String... nodeNames) {
        ObjectNode args = JSON.createObjectNode();
        args.set("Pod", tree(kube.getKubernetesSerialization().asJson(pod)));
        args.putNull("Nodes");
        ArrayNode names = args.putArray("NodeNames");
        for (String n : nodeNames) {
            names.add(n);
        }
        return args.toString();
    }

    /** kube-scheduler's {@code /bind}. */
    Reply bind(Pod pod, String node) {
        return post("/bind", bindBody(pod, node));
    }

    /** The same, without waiting for the answer. */
    CompletableFuture<Reply> bindAsync(Pod pod, String node) {
        return postAsync("/bind", bindBody(pod, node));
    }

    static String bindBody(Pod pod, String node) {
        return JSON.createObjectNode().put("PodName", pod.getMetadata().getName())
                .put("PodNamespace", pod.getMetadata().getNamespace())
                .put("PodUID", pod.getMetadata().getUid() == null ? "" : pod.getMetadata().getUid())
                .put("Node", node).toString();
    }

    // ------------------------------------------------------------------ HTTP

    /** A POST with a JSON body, answered within 30 s. */
    Reply post(String path, String body) {
        return answered(postAsync(path, body));
    }

    /** A POST with raw bytes. */
    Reply post(String path, byte[] body) {
        return post(path, "application/json", body);
    }

    /** A POST with raw bytes and {@code contentType} (none when null). */
    Reply post(String path, String contentType, byte[] body) {
        return answered(postAsync(path, contentType, body));
    }

    /** A POST with raw bytes and {@code contentType} (none when null) over HTTP {@code version}. */
    Reply post(String path, String contentType, byte[] body, HttpClient.Version version) {
        return answered(postAsync(path, contentType, body, version));
    }

    /** The same, without waiting for the answer. */
    CompletableFuture<Reply> postAsync(String path, String contentType, byte[] body) {
        return postAsync(path, contentType, body, HttpClient.Version.HTTP_2);
    }

    /** The same over HTTP {@code version} (HTTP/2 is tried by upgrade, as the JDK client does). */
    CompletableFuture<Reply> postAsync(String path, String contentType, byte[] body, HttpClient.Version version) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).version(version)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        return send(request);
    }

    CompletableFuture<Reply> postAsync(String path, String body) {
        return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)));
    }

    Reply get(String path) {
        return answered(getAsync(path));
    }

    /** The same, without waiting for the answer. */
    CompletableFuture<Reply> getAsync(String path) {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    /** A GET on the metrics listener ({@code /metrics}, {@code /debug/state}), over HTTP/1.1 as Prometheus scrapes. */
    Reply getMetricsPort(String path) {
        return answered(getMetricsPortAsync(path));
    }

    /** The same, without waiting for the answer. */
    CompletableFuture<Reply> getMetricsPortAsync(String path) {
        return metricsHttp.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                        + gateway.metricsPort() + path)).timeout(Duration.ofSeconds(30)).GET().build(),
                        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8))
                .thenApply(r -> new Reply(r.statusCode(), r.headers().firstValue("Content-Type").orElse(""),
                        r.body()));
    }

    private CompletableFuture<Reply> send(HttpRequest.Builder request) {
        return http.sendAsync(request.timeout(Duration.ofSeconds(30)).build(),
                        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8))
                .thenApply(r -> new Reply(r.statusCode(), r.headers().firstValue("Content-Type").orElse(""),
                        r.body()));
    }

    /** The API listener's URI of {@code path} ({@code https} when started with TLS). */
    URI uri(String path) {
        return URI.create(scheme + "://127.0.0.1:" + gateway.apiPort() + path);
    }

    /**
     * The answer of {@code reply}, waited for on the test thread by polling it (bounded: the clients time a request
     * out after 30 s); fails with an {@link AssertionError} when it did not come or came as a failure.
     */
    static <T> T answered(CompletableFuture<T> reply) {
        Eventually.within(ANSWER, ANSWER_POLL, "an HTTP answer", reply::isDone);
        try {
            return reply.getNow(null);
        } catch (CompletionException | CancellationException e) {
            throw new AssertionError("no HTTP answer: " + e, e);
        }
    }

    /**
     * One HTTP answer.
     *
     * @param status      HTTP status
     * @param contentType Content-Type header ("" when absent)
     * @param body        the body text
     */
    record Reply(int status, String contentType, String body) {

        /** The body as JSON. */
        JsonNode json() {
            return tree(body);
        }
    }

    // ------------------------------------------------------------------ helpers

    /** Waits until {@code condition} holds, failing after 10 s. */
    void eventually(String what, BooleanSupplier condition) {
        Eventually.within(WAIT, what, condition);
    }

    /** A namespace per test method: lower case DNS-1123 of its name. */
    static String namespaceOf(String method) {
        String dns = method.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9-]", "-");
        return dns.length() > 50 ? dns.substring(0, 50).replaceAll("-+$", "") : dns;
    }

    /** Parses JSON text (test input is trusted: a parse failure is a test failure). */
    static JsonNode tree(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

    private static List<PatchOp> patchOps(String base64) {
        List<PatchOp> ops = new ArrayList<>();
        for (JsonNode op : tree(new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8))) {
            Object value = op.has("value") ? JSON.convertValue(op.get("value"), Object.class) : null;
            ops.add(new PatchOp(PatchOp.Op.valueOf(op.get("op").asText().toUpperCase(Locale.ROOT)),
                    op.get("path").asText(), value));
        }
        return ops;
    }

    private static Path writeKubeconfig(String masterUrl, String user) throws IOException {
        String server = masterUrl.endsWith("/") ? masterUrl.substring(0, masterUrl.length() - 1) : masterUrl;
        Path file = Files.createTempFile("vgpu-e2e-kubeconfig", ".yaml");
        Files.writeString(file, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: mock
                  cluster:
                    server: %s
                contexts:
                - name: mock
                  context:
                    cluster: mock
                    user: mock
                    namespace: default
                current-context: mock
                users:
                - name: mock
                  user: %s
                """.formatted(server, user));
        return file;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
