package io.vgpu.deviceplugin.testing;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.crud.CrudDispatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;

/**
 * fabric8's CRUD mock API server taught the pod field selector {@code spec.nodeName=<node>}, which a real
 * API server supports and the node agent's pod informer selects on (the mock matches field selectors only
 * on metadata fields, so without this a node-scoped informer lists nothing). The mock keeps one attribute
 * extractor in two private final fields; {@link #start} swaps in one that adds {@code spec.nodeName}.
 * Test-only reflection on a test-only library (the gateway's {@code SchedulerNameFields} does the same for
 * {@code spec.schedulerName}): if a fabric8 upgrade renames the fields, {@link #start} fails loudly.
 *
 * <p>Use one server per test when informers are stopped during the test: when a watch closes while the
 * mock is sending it an event, the mock's close handler waits for that send on the event loop the send
 * needs (fabric8 8.0.0 {@code WatchEventsListener.onClosed}), which stalls that loop for 30 s. {@link #close}
 * tolerates the resulting slow shutdown.
 */
public final class NodeFieldApiServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NodeFieldApiServer.class);
    private static final String FIELD = "spec.nodeName";

    private final KubernetesMockServer server;
    private final KubernetesClient client;

    private NodeFieldApiServer() {
        KubernetesCrudDispatcher crud = new KubernetesCrudDispatcher();
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

    /** Requests the server has received so far. */
    public int requestCount() {
        return server.getRequestCount();
    }

    /** Closes the client, then the server; a server stalled by the mock's watch-close wait is left to finish alone. */
    @Override
    public void close() {
        client.close();
        try {
            server.destroy();
        } catch (IllegalStateException e) {
            // "Unable to close MockWebServer": its event loop is stalled (see the class comment); nothing of the
            // test depends on it any more, and its threads end when the stalled wait times out
            LOG.warn("mock API server did not stop in time: {}", e.getMessage());
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

    /** The mock's extractor plus a {@code spec.nodeName} attribute on pods that have one. */
    private static final class NodeNameExtractor extends KubernetesAttributesExtractor {

        @Override
        public AttributeSet extract(HasMetadata resource) {
            AttributeSet attributes = super.extract(resource);
            String node = nodeName(resource);
            return node == null ? attributes : attributes.add(new Attribute(FIELD, node));
        }

        private static String nodeName(HasMetadata resource) {
            if (resource instanceof Pod pod) {
                return pod.getSpec() == null ? null : pod.getSpec().getNodeName();
            }
            if (resource instanceof GenericKubernetesResource generic && "Pod".equals(generic.getKind())
                    && generic.getAdditionalProperties().get("spec") instanceof Map<?, ?> spec
                    && spec.get("nodeName") instanceof String name) {
                return name;
            }
            return null;
        }
    }
}
