package io.vgpu.deviceplugin.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.crud.CrudDispatcher;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.dra.ResourceSliceCodec;
import io.vgpu.state.dra.SliceObject;
import io.vgpu.state.dra.SliceValidator;
import io.vgpu.testsupport.MockWatchCloser;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * fabric8's CRUD mock API server taught the pod field selector {@code spec.nodeName=<node>}, which a real
 * API server supports and the node agent's pod informer selects on (the mock matches field selectors only
 * on metadata fields, so without this a node-scoped informer lists nothing). The mock keeps one attribute
 * extractor in two private final fields; {@link #start} swaps in one that adds {@code spec.nodeName}
 * (pods and ResourceSlices) and {@code spec.driver} (ResourceSlices).
 *
 * <p>It also validates every ResourceSlice written to it (create, update) with the model's
 * {@link SliceValidator}, as a real API server would, and answers 422 with the problems for an invalid one:
 * the mock itself validates nothing. {@link #dropDeviceTaints} makes it behave like an API server with the
 * {@code DRADeviceTaints} gate off (taints silently dropped from stored slices).
 * Test-only reflection on a test-only library (the gateway's {@code SchedulerNameFields} does the same for
 * {@code spec.schedulerName}): if a fabric8 upgrade renames the fields, {@link #start} fails loudly.
 *
 * <p>Watches close off the server's event loop ({@link MockWatchCloser}): when a watch closes while the mock is
 * sending it an event, the mock's own close handler waits for that send on the event loop the send needs (fabric8
 * 8.0.0 {@code WatchEventsListener.onClosed}), which would stall that loop for 30 s and fail {@link #close}.
 */
public final class NodeFieldApiServer implements AutoCloseable {

    private static final String FIELD = "spec.nodeName";
    private static final String DRIVER_FIELD = "spec.driver";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KubernetesMockServer server;
    private final KubernetesClient client;
    private final MockWatchCloser watchCloser = new MockWatchCloser();
    private final AtomicInteger validatedSlices = new AtomicInteger();
    private final List<String> refusedSlices = new CopyOnWriteArrayList<>();
    private volatile boolean dropDeviceTaints;

    private NodeFieldApiServer() {
        KubernetesCrudDispatcher crud = new ValidatingDispatcher();
        install(crud);
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), crud, false);
        server.init();
        client = server.createClient();
    }

    /** A server on a free local port, with one client. */
    public static NodeFieldApiServer start() {
        return new NodeFieldApiServer();
    }

    /** The client of this server (closed with it). */
    public KubernetesClient client() {
        return client;
    }

    /** ResourceSlices written so far that passed the validator. */
    public int validatedSlices() {
        return validatedSlices.get();
    }

    /** The problems of every ResourceSlice refused so far (one entry per write). */
    public List<String> refusedSlices() {
        return List.copyOf(refusedSlices);
    }

    /** Drops the taints of every ResourceSlice written from now on, as an API server without DRADeviceTaints. */
    public void dropDeviceTaints(boolean drop) {
        this.dropDeviceTaints = drop;
    }

    /** Requests the server has received so far. */
    public int requestCount() {
        return server.getRequestCount();
    }

    /** Closes the client, then the server, then waits for the watch closes handed off (fails if one is not done in 10 s). */
    @Override
    public void close() {
        client.close();
        try {
            server.destroy();
            watchCloser.awaitClosed(Duration.ofSeconds(10));
        } finally {
            watchCloser.close();
        }
    }

    private static void install(KubernetesCrudDispatcher crud) {
        try {
            NodeNameExtractor extractor = new NodeNameExtractor();
            Object crdProcessor = field(KubernetesCrudDispatcher.class, "crdProcessor").get(crud);
            for (Method m : KubernetesAttributesExtractor.class.getMethods()) {
                if (m.getName().equals("setCustomResourceDefinitionProcessor")) {
                    m.invoke(extractor, crdProcessor);
                }
            }
            field(KubernetesCrudDispatcher.class, "kubernetesAttributesExtractor").set(crud, extractor);
            field(CrudDispatcher.class, "attributeExtractor").set(crud, extractor);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot teach the CRUD mock " + FIELD + " (fabric8 changed?)", e);
        }
    }

    private static Field field(Class<?> owner, String name) throws NoSuchFieldException {
        Field f = owner.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }

    /** The CRUD dispatcher with the API server's ResourceSlice validation in front of writes. */
    private final class ValidatingDispatcher extends KubernetesCrudDispatcher {

        @Override
        public MockResponse handleWatch(String path) {
            return watchCloser.wrap(super.handleWatch(path));
        }

        @Override
        public MockResponse handleCreate(RecordedRequest request) {
            return slice(request) ? checked(request, super::handleCreate) : super.handleCreate(request);
        }

        @Override
        public MockResponse handleUpdate(RecordedRequest request) {
            return slice(request) ? checked(request, super::handleUpdate) : super.handleUpdate(request);
        }

        private boolean slice(RecordedRequest request) {
            return request.getPath() != null && request.getPath().startsWith("/apis/resource.k8s.io/v1/resourceslices");
        }

        private MockResponse checked(RecordedRequest request, Function<RecordedRequest, MockResponse> store) {
            String body = request.getUtf8Body();
            Decoded<SliceObject> decoded = ResourceSliceCodec.decode(body);
            List<String> problems = decoded.isOk()
                    ? SliceValidator.validate(decoded.value().name(), decoded.value().content()) : List.of(decoded.error());
            if (!problems.isEmpty()) {
                refusedSlices.add(String.join("; ", problems));
                return new MockResponse().setResponseCode(422).setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
                        + "\"status\":\"Failure\",\"reason\":\"Invalid\",\"code\":422,\"message\":"
                        + JSON.valueToTree(String.join("; ", problems)) + "}");
            }
            validatedSlices.incrementAndGet();
            try {
                // reading the body drained it: the stored request gets a fresh copy
                byte[] stored = body.getBytes(StandardCharsets.UTF_8);
                if (dropDeviceTaints) {
                    ObjectNode tree = (ObjectNode) JSON.readTree(body);
                    tree.path("spec").path("devices").forEach(d -> ((ObjectNode) d).remove("taints"));
                    stored = JSON.writeValueAsBytes(tree);
                }
                return store.apply(new RecordedRequest(request.getHttpVersion(), request.method(), request.getPath(),
                        request.getHeaders(), new Buffer(stored)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** The mock's extractor plus {@code spec.nodeName} on pods and slices that have one, {@code spec.driver} on slices. */
    private static final class NodeNameExtractor extends KubernetesAttributesExtractor {

        @Override
        public AttributeSet extract(HasMetadata resource) {
            AttributeSet attributes = super.extract(resource);
            String node = nodeName(resource);
            if (node != null) {
                attributes = attributes.add(new Attribute(FIELD, node));
            }
            String driver = driver(resource);
            return driver == null ? attributes : attributes.add(new Attribute(DRIVER_FIELD, driver));
        }

        private static String driver(HasMetadata resource) {
            if (resource instanceof ResourceSlice slice) {
                return slice.getSpec() == null ? null : slice.getSpec().getDriver();
            }
            if (resource instanceof GenericKubernetesResource generic && "ResourceSlice".equals(generic.getKind())
                    && generic.getAdditionalProperties().get("spec") instanceof Map<?, ?> spec
                    && spec.get("driver") instanceof String name) {
                return name;
            }
            return null;
        }

        private static String nodeName(HasMetadata resource) {
            if (resource instanceof ResourceSlice slice) {
                return slice.getSpec() == null ? null : slice.getSpec().getNodeName();
            }
            if (resource instanceof Pod pod) {
                return pod.getSpec() == null ? null : pod.getSpec().getNodeName();
            }
            if (resource instanceof GenericKubernetesResource generic
                    && ("Pod".equals(generic.getKind()) || "ResourceSlice".equals(generic.getKind()))
                    && generic.getAdditionalProperties().get("spec") instanceof Map<?, ?> spec
                    && spec.get("nodeName") instanceof String name) {
                return name;
            }
            return null;
        }
    }
}
