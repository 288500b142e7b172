package io.vgpu.simulate;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;

import io.vgpu.gateway.testing.SchedulerNameFields;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The simulator's Kubernetes API server: fabric8's {@link KubernetesMockServer} in CRUD mode, in-process, plain
 * HTTP on loopback, holding nothing but what {@code simulate} and the gateway write into it. It is not a real
 * API server; it adds just what the gateway's protocol needs and the CRUD mock lacks:
 * <ul>
 *   <li>{@code POST /api/v1/namespaces/{ns}/pods/{name}/binding} sets {@code spec.nodeName} on the stored pod
 *       (watchers see the update); 409 when the pod is bound to another node or the Binding's UID is not the
 *       pod's; 201 again (idempotent) when bound to the same node; 404 for a missing pod. Every binding is
 *       recorded ({@link #bindings()}).</li>
 *   <li>the pod field selector {@code spec.schedulerName=<name>} ({@link SchedulerNameFields}).</li>
 *   <li>core/v1 Events in a store of their own, bounded and expiring ({@link SimulatedEvents}: at most
 *       {@value #EVENT_CAPACITY}, none older than an hour, as a real server's {@code --event-ttl}), so that the
 *       Events of a long run cannot slow the CRUD store, which scans everything it holds on every request.</li>
 *   <li>pods preloaded with their own UIDs ({@link #preload}), for replaying recorded sessions.</li>
 * </ul>
 * It runs no admission webhooks: {@code simulate} calls {@code /webhook} itself before it creates a pod, as an
 * API server would. It assigns its own {@code metadata.uid} on create, as a real server does. Known deviation: a
 * JSON merge patch that sets an annotation to {@code null} leaves the key with a null value where a real server
 * deletes it; the gateway and the simulated device plugin read both as absent. Thread-safe.
 */
public final class SimulatedApiServer implements AutoCloseable {

    /** Events kept at most. */
    static final int EVENT_CAPACITY = 2_000;
    private static final Duration EVENT_TTL = Duration.ofHours(1);
    private static final Pattern BINDING = Pattern.compile("^/api/v1/namespaces/([^/]+)/pods/([^/?]+)/binding$");
    private static final Pattern EVENTS = Pattern.compile(
            "^/api/v1/(?:namespaces/([^/?]+)/)?events(?:/([^/?]+))?(?:\\?(.*))?$");
    private static final String MERGE_PATCH = "application/merge-patch+json";
    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    private final KubernetesCrudDispatcher crud = new KubernetesCrudDispatcher();
    private final KubernetesMockServer server;
    private final List<BindingRecord> bindings = new CopyOnWriteArrayList<>();
    private final SimulatedEvents events;

    /**
     * One binding request and how it was answered.
     *
     * @param namespace pod namespace
     * @param pod       pod name
     * @param node      target node
     * @param status    the HTTP status answered (201 = bound)
     */
    public record BindingRecord(String namespace, String pod, String node, int status) {
    }

    private SimulatedApiServer(int port, SimulatedEvents events) {
        this.events = events;
        SchedulerNameFields.install(crud);
        // the mock web server logs every request through java.util.logging at INFO
        Logger.getLogger(MockWebServer.class.getName()).setLevel(Level.WARNING);
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new WithBinding(), false);
        server.init(InetAddress.getLoopbackAddress(), port);
    }

    /**
     * Starts a server on loopback.
     *
     * @param port the port, 0 for any free one
     */
    public static SimulatedApiServer start(int port) {
        return start(port, new SimulatedEvents(EVENT_CAPACITY, EVENT_TTL, Clock.systemUTC()));
    }

    /** {@link #start(int)} with its own Event store (tests: a small bound, a clock of their own). */
    static SimulatedApiServer start(int port, SimulatedEvents events) {
        return new SimulatedApiServer(port, events);
    }

    /** The Event store. */
    SimulatedEvents events() {
        return events;
    }

    /**
     * Stores {@code pod} as it is, keeping its {@code metadata.uid} (a real API server assigns its own on create; a
     * recorded kube-scheduler session names the pods' original UIDs in {@code /bind}). Call before the gateway
     * starts, so that its informers see the pod once, with that UID.
     *
     * @throws IllegalArgumentException when the pod cannot be stored (a name taken, an invalid object)
     */
    public void preload(Pod pod) {
        String namespace = pod.getMetadata().getNamespace() == null ? "default" : pod.getMetadata().getNamespace();
        pod.getMetadata().setNamespace(namespace);
        String uid = pod.getMetadata().getUid();
        String path = "/api/v1/namespaces/" + namespace + "/pods";
        MockResponse created = crud.dispatch(request(HttpMethod.POST, path, "application/json", JSON.asJson(pod)));
        if (created.code() / 100 != 2) {
            throw new IllegalArgumentException("pod " + namespace + "/" + pod.getMetadata().getName()
                    + " not stored: HTTP " + created.code() + " " + body(created));
        }
        if (uid != null && !uid.isEmpty()) {
            keepUid(path + "/" + pod.getMetadata().getName(), uid);
        }
    }

    /**
     * Rewrites the UID the CRUD store gave the pod at {@code podPath} (it assigns one on create and keeps it on every
     * update) in its store directly, through the store's own persistence calls.
     */
    private void keepUid(String podPath, String uid) {
        AttributeSet key = crud.getKey(podPath);
        Map.Entry<AttributeSet, String> stored = crud.findResource(key);
        GenericKubernetesResource resource = JSON.unmarshal(stored.getValue(), GenericKubernetesResource.class);
        resource.getMetadata().setUid(uid);
        crud.processEvent(podPath, key, stored.getKey(), resource, JSON.asJson(resource));
    }

    private static String body(MockResponse response) {
        return response.getBody() == null ? "" : new String(response.getBody().getBytes(), StandardCharsets.UTF_8);
    }

    /** The base URL, e.g. {@code http://127.0.0.1:40123}. */
    public String url() {
        String url = server.url("/");
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    /** The port it listens on. */
    public int port() {
        return server.getPort();
    }

    /** Every binding request so far, in arrival order. */
    public List<BindingRecord> bindings() {
        return List.copyOf(bindings);
    }

    /**
     * Writes a kubeconfig for this server (one cluster, context and credential-less user, all named
     * {@code vgpu-simulate}, default namespace {@code default}) and returns its path.
     */
    public Path writeKubeconfig(Path file) throws IOException {
        String yaml = """
                apiVersion: v1
                kind: Config
                clusters:
                - name: vgpu-simulate
                  cluster:
                    server: %s
                contexts:
                - name: vgpu-simulate
                  context:
                    cluster: vgpu-simulate
                    user: vgpu-simulate
                    namespace: default
                current-context: vgpu-simulate
                users:
                - name: vgpu-simulate
                  user: {}
                """.formatted(url());
        return Files.writeString(file, yaml, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        server.destroy();
    }

    private static RecordedRequest request(HttpMethod method, String path, String contentType, String body) {
        Headers headers = Headers.builder().add("Content-Type", contentType).build();
        return new RecordedRequest("HTTP/1.1", method, path, headers,
                new Buffer(body.getBytes(StandardCharsets.UTF_8)));
    }

    /** The CRUD dispatcher with the binding subresource in front of it. */
    private final class WithBinding extends Dispatcher {

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            Matcher event = EVENTS.matcher(request.getPath());
            if (event.matches()) {
                return events(request, event);
            }
            Matcher binding = BINDING.matcher(request.getPath());
            if ("POST".equals(request.getMethod()) && binding.matches()) {
                String body = request.getBody() == null ? ""
                        : new String(request.getBody().getBytes(), StandardCharsets.UTF_8);
                return bind(binding.group(1), binding.group(2), body);
            }
            return crud.dispatch(request);
        }

        @Override
        public void shutdown() {
            crud.shutdown();
        }

        private MockResponse events(RecordedRequest request, Matcher path) {
            String namespace = path.group(1);
            String name = path.group(2);
            String query = path.group(3);
            SimulatedEvents.Answer answer;
            if ("POST".equals(request.getMethod()) && namespace != null && name == null) {
                answer = events.create(namespace, request.getBody() == null ? ""
                        : new String(request.getBody().getBytes(), StandardCharsets.UTF_8));
            } else if ("GET".equals(request.getMethod()) && (query == null || !query.contains("watch=true"))) {
                answer = events.get(namespace, name, query);
            } else {
                answer = events.unsupported(request.getMethod());
            }
            return new MockResponse().setResponseCode(answer.status()).setBody(answer.body());
        }

        private MockResponse bind(String namespace, String name, String body) {
            Binding requested;
            try {
                requested = JSON.unmarshal(body, Binding.class);
            } catch (RuntimeException e) {
                return status(400, "BadRequest", "undecodable Binding: " + e.getMessage());
            }
            String node = requested.getTarget() == null ? null : requested.getTarget().getName();
            String uid = requested.getMetadata() == null || requested.getMetadata().getUid() == null
                    ? "" : requested.getMetadata().getUid();
            MockResponse response = bindOnce(namespace, name, uid, node);
            bindings.add(new BindingRecord(namespace, name, node, response.code()));
            return response;
        }

        // synchronized: two bindings of one pod must not both see it unbound
        private synchronized MockResponse bindOnce(String namespace, String name, String uid, String node) {
            String podPath = "/api/v1/namespaces/" + namespace + "/pods/" + name;
            MockResponse current = crud.handleGet(podPath);
            if (current.code() != 200) {
                return status(404, "NotFound", "pods \"" + name + "\" not found");
            }
            Pod pod = JSON.unmarshal(new String(current.getBody().getBytes(), StandardCharsets.UTF_8), Pod.class);
            if (node == null || node.isEmpty()) {
                return status(400, "BadRequest", "binding target node name is required");
            }
            if (!uid.isEmpty() && !uid.equals(pod.getMetadata().getUid())) {
                return status(409, "Conflict", "Operation cannot be fulfilled on pods/binding \"" + name
                        + "\": the UID in the precondition (" + uid + ") does not match the UID in record ("
                        + pod.getMetadata().getUid() + ")");
            }
            String bound = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
            if (bound != null && !bound.isEmpty()) {
                return bound.equals(node) ? created()
                        : status(409, "Conflict", "Operation cannot be fulfilled on pods/binding \"" + name
                        + "\": pod " + name + " is already assigned to node \"" + bound + "\"");
            }
            MockResponse patched = crud.dispatch(request(HttpMethod.PATCH, podPath, MERGE_PATCH,
                    "{\"spec\":{\"nodeName\":" + JSON.asJson(node) + "}}"));
            return patched.code() / 100 == 2 ? created() : patched;
        }

        private MockResponse created() {
            return new MockResponse().setResponseCode(201)
                    .setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Success\",\"code\":201}");
        }
    }

    private static MockResponse status(int code, String reason, String message) {
        return new MockResponse().setResponseCode(code).setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
                + "\"metadata\":{},\"status\":\"Failure\",\"message\":" + JSON.asJson(message) + ",\"reason\":\""
                + reason + "\",\"code\":" + code + "}");
    }
}
