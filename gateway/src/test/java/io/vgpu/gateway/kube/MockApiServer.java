package io.vgpu.gateway.kube;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.vgpu.gateway.testing.SchedulerNameFields;
import io.vgpu.testsupport.MockWatchCloser;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.logging.Level;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A fake Kubernetes API server for adapter tests: fabric8's {@link KubernetesMockServer} in CRUD mode, with
 * its dispatcher wrapped once to add what the CRUD mock lacks (DEPENDENCIES.md §5):
 * <ul>
 *   <li>{@code POST /api/v1/namespaces/{ns}/pods/{name}/binding} sets {@code spec.nodeName} on the stored pod
 *       (watchers see the update); 409 when the pod is bound to another node or the Binding's UID is not the
 *       pod's; 201 again (idempotent) when bound to the same node; 404 for a missing pod. Every binding request
 *       is recorded ({@link #bindings()}).</li>
 *   <li>Every request is recorded ({@link #requests()}) with method, path, content type and body, for
 *       byte-exact assertions on patch bodies.</li>
 *   <li>Faults: {@link #loseNextResponse} applies the next matching request and then answers 500, as if the
 *       response had been lost; {@link #failNext} answers it with an error status without applying it;
 *       {@link #beforeNext} runs a hook (e.g. a concurrent write) just before it is applied.</li>
 * </ul>
 * The CRUD mock already rejects a merge patch whose {@code metadata.resourceVersion} is stale with 409. It
 * matches field selectors only on metadata fields; {@link SchedulerNameFields} teaches it
 * {@code spec.schedulerName}, which the gateway's pod informers select on.
 * Runs no admission webhooks. Use one namespace per test (and distinct node names), as the server is shared.
 * Watches close off the server's event loop ({@link MockWatchCloser}): the mock's own close of a watch that is being
 * sent an event would stall the server for 30 s and fail {@link #close}.
 */
public final class MockApiServer implements AutoCloseable {

    private static final Pattern BINDING = Pattern.compile("^/api/v1/namespaces/([^/]+)/pods/([^/]+)/binding$");
    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    private final KubernetesCrudDispatcher crud = new KubernetesCrudDispatcher();
    private final KubernetesMockServer server;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final List<BindingRequest> bindings = new CopyOnWriteArrayList<>();
    private final Queue<Fault> faults = new ConcurrentLinkedQueue<>();
    private final MockWatchCloser watchCloser = new MockWatchCloser();

    /**
     * One recorded request.
     *
     * @param method      HTTP method
     * @param path        path with query
     * @param contentType Content-Type header, or null
     * @param body        UTF-8 body ("" when none)
     */
    public record Request(String method, String path, String contentType, String body) {
    }

    /**
     * One binding request and how it was answered.
     *
     * @param namespace pod namespace
     * @param pod       pod name
     * @param uid       the Binding's metadata.uid ("" when absent)
     * @param node      target node
     * @param status    the HTTP status answered
     */
    public record BindingRequest(String namespace, String pod, String uid, String node, int status) {
    }

    private record Fault(String method, Predicate<String> path, Runnable before, boolean loseResponse,
                         MockResponse answer) {
    }

    private MockApiServer() {
        SchedulerNameFields.install(crud);
        // the mock web server logs every request through java.util.logging at INFO
        java.util.logging.Logger.getLogger(MockWebServer.class.getName()).setLevel(Level.WARNING);
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new Wrapped(), false);
        server.init();
    }

    /** Starts a server on a free local port. */
    public static MockApiServer start() {
        return new MockApiServer();
    }

    /** A fabric8 configuration pointing at this server (plain HTTP, no credentials). */
    public Config config() {
        return Config.builder().withMasterUrl(server.url("/")).withTrustCerts(true).withNamespace("default")
                .withDisableHostnameVerification(true).withRequestTimeout(5_000).build();
    }

    /** A client built like production ({@link KubeClientFactory}) with {@code settings}' timeouts and retries. */
    public KubernetesClient client(KubeClientConfig settings) {
        return KubeClientFactory.builder(KubeClientFactory.tune(config(), settings), null).build();
    }

    /** Every request so far, in arrival order. */
    public List<Request> requests() {
        return List.copyOf(requests);
    }

    /** The requests with this method whose path starts with {@code pathPrefix}. */
    public List<Request> requests(String method, String pathPrefix) {
        return requests.stream().filter(r -> r.method().equals(method) && r.path().startsWith(pathPrefix)).toList();
    }

    /** Every binding request so far. */
    public List<BindingRequest> bindings() {
        return List.copyOf(bindings);
    }

    /** The binding requests for pods in {@code namespace}. */
    public List<BindingRequest> bindings(String namespace) {
        return bindings.stream().filter(b -> b.namespace().equals(namespace)).toList();
    }

    /** The next request with {@code method} on exactly {@code path} is applied, then answered with 500. */
    public void loseNextResponse(String method, String path) {
        faults.add(new Fault(method, path::equals, () -> { }, true, null));
    }

    /** The next request with {@code method} on exactly {@code path} is not applied but answered with a Status. */
    public void failNextMatching(String method, Predicate<String> path, int status, String message) {
        faults.add(new Fault(method, path, () -> { }, false, status(status, "Injected", message)));
    }

    public void failNext(String method, String path, int status, String message) {
        faults.add(new Fault(method, path::equals, () -> { }, false, status(status, "Injected", message)));
    }

    /** Runs {@code hook} (with this server, to write directly) just before the next such request is applied. */
    public void beforeNext(String method, String path, Consumer<MockApiServer> hook) {
        faults.add(new Fault(method, path::equals, () -> hook.accept(this), false, null));
    }

    /**
     * Applies a merge patch directly in the store (watchers notified), bypassing recording and faults; usable
     * from a {@link #beforeNext} hook, where a client call would wait on this very server.
     *
     * @return the HTTP status of the patch
     */
    public int patchDirectly(String path, String mergePatch) {
        return crud.dispatch(request(HttpMethod.PATCH, path, KubeApi.MERGE_PATCH, mergePatch)).code();
    }

    /** Destroys the server, then waits for the watch closes it handed off (fails if one is not done in 10 s). */
    @Override
    public void close() {
        try {
            server.destroy();
            watchCloser.awaitClosed(Duration.ofSeconds(10));
        } finally {
            watchCloser.close();
        }
    }

    private static RecordedRequest request(HttpMethod method, String path, String contentType, String body) {
        Headers headers = Headers.builder().add("Content-Type", contentType).build();
        return new RecordedRequest("HTTP/1.1", method, path, headers,
                new Buffer(body.getBytes(StandardCharsets.UTF_8)));
    }

    /** The wrapped CRUD dispatcher. */
    private final class Wrapped extends Dispatcher {

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            String body = request.getBody() == null ? "" : new String(request.getBody().getBytes(), StandardCharsets.UTF_8);
            requests.add(new Request(request.getMethod(), request.getPath(), request.getHeader("Content-Type"), body));
            Fault fault = takeFault(request);
            if (fault != null) {
                fault.before().run();
                if (fault.answer() != null) {
                    return fault.answer();
                }
            }
            Matcher binding = BINDING.matcher(request.getPath());
            MockResponse response = "POST".equals(request.getMethod()) && binding.matches()
                    ? bind(binding.group(1), binding.group(2), body)
                    : crud.dispatch(request);
            if (fault != null && fault.loseResponse()) {
                return status(500, "InternalError", "response lost (injected fault)");
            }
            return watchCloser.wrap(response);
        }

        @Override
        public void shutdown() {
            crud.shutdown();
        }

        private Fault takeFault(RecordedRequest request) {
            for (Fault f : faults) {
                if (f.method().equals(request.getMethod()) && f.path().test(request.getPath()) && faults.remove(f)) {
                    return f;
                }
            }
            return null;
        }

        private MockResponse bind(String namespace, String name, String body) {
            Binding requested = JSON.unmarshal(body, Binding.class);
            String node = requested.getTarget() == null ? null : requested.getTarget().getName();
            String uid = requested.getMetadata() == null || requested.getMetadata().getUid() == null
                    ? "" : requested.getMetadata().getUid();
            MockResponse response = bindOnce(namespace, name, uid, node);
            bindings.add(new BindingRequest(namespace, name, uid, node, response.code()));
            return response;
        }

        private MockResponse bindOnce(String namespace, String name, String uid, String node) {
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
                        + pod.getMetadata().getUid() + "). The object might have been deleted and then recreated");
            }
            String bound = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
            if (bound != null && !bound.isEmpty()) {
                return bound.equals(node) ? created()
                        : status(409, "Conflict", "Operation cannot be fulfilled on pods/binding \"" + name
                        + "\": pod " + name + " is already assigned to node \"" + bound + "\"");
            }
            MockResponse patched = crud.dispatch(request(HttpMethod.PATCH, podPath, KubeApi.MERGE_PATCH,
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
