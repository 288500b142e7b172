package io.vgpu.loadtest.chaos;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
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
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeLock;
import io.vgpu.state.codec.NodeLockCodec;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The chaos harness's Kubernetes API server: fabric8's CRUD mock ({@link KubernetesMockServer}) with what it lacks
 * for scheduling (DEPENDENCIES.md §5), the idea of the gateway's test fixture {@code MockApiServer}:
 * <ul>
 *   <li>{@code POST .../pods/{name}/binding} sets {@code spec.nodeName} like the real binding subresource: 409 when
 *       the pod is bound to another node or the Binding's UID is not the pod's, 201 again for the same node, 404
 *       for a missing pod. Bindings are applied one at a time (the real API server's resourceVersion check), and
 *       every accepted one is recorded per pod UID ({@link #bindingNodes}). Since this server refuses a second
 *       placement itself, refusing proves nothing about the gateway: every Binding for a pod that is bound already
 *       is recorded too ({@link #secondBindings}), accepted (same node) or refused (another node: the gateway tried
 *       to place a pod twice), and so is every first Binding whose node's {@code hami.io/mutex.lock} did not name
 *       the pod at that moment ({@link #unlockedBindings}: every pod of the harness asks for a GPU, whose bind holds
 *       the node lock, HAMi's contract with its device plugin);</li>
 *   <li>the pod field selector {@code spec.schedulerName}, which the gateway's informers use
 *       ({@link SchedulerNameFields});</li>
 *   <li>pod deletions are not lost by a watch that starts after its list ({@link WatchReplay}): a real API server
 *       replays the events since the list's resourceVersion, the mock does not;</li>
 *   <li>a watch whose client died (a replica killed) is closed off the mock's single event loop, which the mock
 *       would otherwise block for seconds, stalling every other request;</li>
 *   <li>requests are not kept (the mock records every request for its own tests, without bound).</li>
 * </ul>
 * Runs no admission webhooks (the driver calls {@code /webhook} itself). Its cost grows with the number of stored
 * objects, so runs keep the live pod count bounded by deleting finished pods.
 */
public final class ChaosApiServer implements AutoCloseable {

    private static final Pattern BINDING = Pattern.compile("^/api/v1/namespaces/([^/]+)/pods/([^/]+)/binding$");
    private static final Pattern POD = Pattern.compile("^/api/v1/namespaces/([^/]+)/pods/([^/?]+)(\\?.*)?$");
    private static final Pattern POD_WATCH = Pattern.compile("^/api/v1/(namespaces/[^/]+/)?pods\\?.*watch=true.*$");
    private static final Pattern WATCH = Pattern.compile("^[^?]*\\?.*watch=true.*$");
    private static final KubernetesSerialization JSON = new KubernetesSerialization();
    /** Kept in a field: java.util.logging holds loggers weakly; the mock logs every request at INFO. */
    private static final Logger MOCK_LOG = Logger.getLogger(MockWebServer.class.getName());

    private final KubernetesCrudDispatcher crud = new KubernetesCrudDispatcher();
    private final KubernetesMockServer server;
    private final Object bindings = new Object();
    private final Map<String, Set<String>> boundNodes = new ConcurrentHashMap<>();
    private final List<SecondBinding> secondBindings = new CopyOnWriteArrayList<>();
    private final List<UnlockedBinding> unlockedBindings = new CopyOnWriteArrayList<>();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong bindingRequests = new AtomicLong();
    private final AtomicLong firstBindings = new AtomicLong();
    private final AtomicLong failedBindings = new AtomicLong();
    /** The counter reached a failure; it goes to the next first Binding onto one of {@link #failOn}. */
    private final AtomicBoolean failureDue = new AtomicBoolean();
    /** Nodes an injected failure prefers (those of the lagging owner); empty: any node. */
    private volatile Set<String> failOn = Set.of();
    private final int failBindingEvery;
    private final WatchReplay replay;
    private final MockWebServer web;
    private final ScheduledExecutorService forgetRequests;

    private ChaosApiServer(int failBindingEvery) {
        this.failBindingEvery = failBindingEvery;
        SchedulerNameFields extractor = SchedulerNameFields.install(crud);
        replay = new WatchReplay(crud, extractor);
        MOCK_LOG.setLevel(Level.WARNING);
        web = new MockWebServer();
        server = new KubernetesMockServer(new Context(), web, new HashMap<>(), new Wrapped(), false);
        server.init();
        forgetRequests = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread t = new Thread(task, "chaos-api-forget-requests");
            t.setDaemon(true);
            return t;
        });
        forgetRequests.scheduleWithFixedDelay(this::forgetRecordedRequests, 1, 1, TimeUnit.SECONDS);
    }

    /** The mock web server records every request for {@code takeRequest}; nobody takes them here. */
    private void forgetRecordedRequests() {
        try {
            while (web.takeRequest(0, TimeUnit.MILLISECONDS) != null) {
                // drop it
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Starts a server on a free loopback port. */
    public static ChaosApiServer start() {
        return start(0);
    }

    /**
     * Starts a server on a free loopback port that answers every {@code failBindingEvery}-th first Binding of a pod
     * (or the next one onto a node of {@link #failBindingsOn}) with a 409 without binding it (a conflict, as a real
     * API server may answer; 0 for never): the gateway has written {@code bind-phase=allocating} by then, and
     * kube-scheduler filters the pod again, usually onto another node.
     */
    public static ChaosApiServer start(int failBindingEvery) {
        return new ChaosApiServer(failBindingEvery);
    }

    /**
     * Where the injected Binding failures go: to the next first Binding onto one of {@code nodes} once one is due
     * (empty: onto any node). The checker names the nodes the stale replica owns: that owner sees the failed bind's
     * {@code bind-phase} only after the pod was filtered again elsewhere, the late observation an ingest that records
     * observations blindly turns into a charge left on the old node (the broken build {@code ingest-charges-twice}).
     * On a node with a prompt owner that observation comes before the re-filter, which releases it.
     */
    public void failBindingsOn(Set<String> nodes) {
        failOn = Set.copyOf(nodes);
    }

    /** First Bindings answered with an injected conflict so far. */
    public long failedBindings() {
        return failedBindings.get();
    }

    /** The base URL, e.g. {@code http://localhost:43210} (no trailing slash). */
    public String url() {
        String url = server.url("/");
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    /** A fabric8 configuration for the driver's own client. */
    public Config config() {
        return Config.builder().withMasterUrl(server.url("/")).withTrustCerts(true).withNamespace("default")
                .withRequestTimeout(10_000).withConnectionTimeout(5_000).withMaxConcurrentRequests(256)
                .withMaxConcurrentRequestsPerHost(256).build();
    }

    /** The nodes a pod UID was bound to with an accepted binding (201); never more than one if all is well. */
    public Set<String> bindingNodes(String podUid) {
        Set<String> nodes = boundNodes.get(podUid);
        return nodes == null ? Set.of() : Set.copyOf(nodes);
    }

    /** Every pod UID that was bound to more than one node (the double-placement truth). */
    public Map<String, Set<String>> placedTwice() {
        Map<String, Set<String>> out = new HashMap<>();
        boundNodes.forEach((uid, nodes) -> {
            if (nodes.size() > 1) {
                out.put(uid, Set.copyOf(nodes));
            }
        });
        return out;
    }

    /** Every Binding of a pod that was bound already, in the order they came. */
    public List<SecondBinding> secondBindings() {
        return List.copyOf(secondBindings);
    }

    /** Every accepted first Binding whose node lock did not name the pod, in the order they came. */
    public List<UnlockedBinding> unlockedBindings() {
        return List.copyOf(unlockedBindings);
    }

    /**
     * A Binding for a pod that was bound already.
     *
     * @param pod       namespace/name
     * @param podUid    the pod's UID
     * @param requested the node the Binding named
     * @param boundTo   the node the pod was bound to
     * @param atMillis  when (epoch millis)
     */
    public record SecondBinding(String pod, String podUid, String requested, String boundTo, long atMillis) {

        /** Whether it tried to place the pod on another node (refused with 409). */
        public boolean elsewhere() {
            return !requested.equals(boundTo);
        }
    }

    /**
     * An accepted Binding whose node lock did not name the pod.
     *
     * @param pod      namespace/name
     * @param podUid   the pod's UID
     * @param node     the node it was bound to
     * @param lock     the node's {@code hami.io/mutex.lock} at that moment (null: none)
     * @param atMillis when (epoch millis)
     */
    public record UnlockedBinding(String pod, String podUid, String node, String lock, long atMillis) {
    }

    /** Requests served so far. */
    public long requests() {
        return requests.get();
    }

    /** Binding requests served so far (accepted or not). */
    public long bindingRequests() {
        return bindingRequests.get();
    }

    @Override
    public void close() {
        forgetRequests.shutdownNow();
        server.destroy();
        replay.close();
    }

    private static RecordedRequest request(HttpMethod method, String path, String body) {
        Headers headers = Headers.builder().add("Content-Type", "application/merge-patch+json").build();
        return new RecordedRequest("HTTP/1.1", method, path, headers,
                new Buffer(body.getBytes(StandardCharsets.UTF_8)));
    }

    private static MockResponse status(int code, String reason, String message) {
        return new MockResponse().setResponseCode(code).setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
                + "\"metadata\":{},\"status\":\"Failure\",\"message\":" + JSON.asJson(message) + ",\"reason\":\""
                + reason + "\",\"code\":" + code + "}");
    }

    private static MockResponse created() {
        return new MockResponse().setResponseCode(201)
                .setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Success\","
                        + "\"code\":201}");
    }

    /** Whether a {@code hami.io/mutex.lock} value names the pod as its owner. */
    private static boolean namesPod(String lock, String namespace, String name) {
        if (lock == null) {
            return false;
        }
        Decoded<NodeLock> parsed = NodeLockCodec.parse(lock);
        return parsed.isOk() && parsed.value().namesOwner() && parsed.value().ownedBy(namespace, name);
    }

    /** The CRUD dispatcher plus the binding subresource. */
    private final class Wrapped extends Dispatcher {

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            requests.incrementAndGet();
            Matcher binding = BINDING.matcher(request.getPath());
            if ("POST".equals(request.getMethod()) && binding.matches()) {
                bindingRequests.incrementAndGet();
                String body = request.getBody() == null ? ""
                        : new String(request.getBody().getBytes(), StandardCharsets.UTF_8);
                synchronized (bindings) {
                    return bind(binding.group(1), binding.group(2), body);
                }
            }
            if ("DELETE".equals(request.getMethod()) && POD.matcher(request.getPath()).matches()) {
                return replay.delete(request);
            }
            if ("GET".equals(request.getMethod()) && POD_WATCH.matcher(request.getPath()).matches()) {
                return replay.watch(request);
            }
            if ("GET".equals(request.getMethod()) && WATCH.matcher(request.getPath()).matches()) {
                return replay.offloadClose(crud.dispatch(request));
            }
            return crud.dispatch(request);
        }

        @Override
        public void shutdown() {
            crud.shutdown();
        }

        /** The node's {@code hami.io/mutex.lock} as stored now, or null. */
        private String nodeLock(String node) {
            MockResponse stored = crud.handleGet("/api/v1/nodes/" + node);
            if (stored.code() != 200) {
                return null;
            }
            Node n = JSON.unmarshal(new String(stored.getBody().getBytes(), StandardCharsets.UTF_8), Node.class);
            Map<String, String> annotations = n.getMetadata().getAnnotations();
            return annotations == null ? null : annotations.get(HamiAnnotations.NODE_LOCK);
        }

        private MockResponse bind(String namespace, String name, String body) {
            Binding requested = JSON.unmarshal(body, Binding.class);
            String node = requested.getTarget() == null ? null : requested.getTarget().getName();
            String uid = requested.getMetadata() == null || requested.getMetadata().getUid() == null
                    ? "" : requested.getMetadata().getUid();
            String podPath = "/api/v1/namespaces/" + namespace + "/pods/" + name;
            MockResponse current = crud.handleGet(podPath);
            if (current.code() != 200) {
                return status(404, "NotFound", "pods \"" + name + "\" not found");
            }
            Pod pod = JSON.unmarshal(new String(current.getBody().getBytes(), StandardCharsets.UTF_8), Pod.class);
            if (node == null || node.isEmpty()) {
                return status(400, "BadRequest", "binding target node name is required");
            }
            String podUid = pod.getMetadata().getUid();
            if (!uid.isEmpty() && !uid.equals(podUid)) {
                return status(409, "Conflict", "Operation cannot be fulfilled on pods/binding \"" + name
                        + "\": the UID in the precondition (" + uid + ") does not match the UID in record ("
                        + podUid + "). The object might have been deleted and then recreated");
            }
            String bound = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
            if (bound != null && !bound.isEmpty()) {
                secondBindings.add(new SecondBinding(namespace + "/" + name, podUid, node, bound,
                        System.currentTimeMillis()));
                return bound.equals(node) ? created()
                        : status(409, "Conflict", "Operation cannot be fulfilled on pods/binding \"" + name
                        + "\": pod " + name + " is already assigned to node \"" + bound + "\"");
            }
            if (failBindingEvery > 0 && firstBindings.incrementAndGet() % failBindingEvery == 0) {
                failureDue.set(true);
            }
            Set<String> preferred = failOn;
            if ((preferred.isEmpty() || preferred.contains(node)) && failureDue.compareAndSet(true, false)) {
                failedBindings.incrementAndGet();
                // a conflict, not a 5xx: the gateway's client retries 5xx answers on its own
                return status(409, "Conflict", "Operation cannot be fulfilled on pods/binding \"" + name + "\": the "
                        + "object has been modified; please apply your changes to the latest version and try again "
                        + "(injected by the chaos harness)");
            }
            String lock = nodeLock(node);
            if (!namesPod(lock, namespace, name)) {
                unlockedBindings.add(new UnlockedBinding(namespace + "/" + name, podUid, node, lock,
                        System.currentTimeMillis()));
            }
            MockResponse patched = crud.dispatch(request(HttpMethod.PATCH, podPath,
                    "{\"spec\":{\"nodeName\":" + JSON.asJson(node) + "}}"));
            if (patched.code() / 100 != 2) {
                return patched;
            }
            boundNodes.computeIfAbsent(podUid, u -> ConcurrentHashMap.newKeySet()).add(node);
            return created();
        }
    }
}
