package io.vgpu.gateway.kube;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxTestContext;
import io.vgpu.gateway.testflow.TestFlow;
import org.junit.jupiter.api.TestInfo;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;

/** Builders and helpers for the Kubernetes adapter tests. */
final class KubeFixtures {

    /** Fast settings for tests: no client retries, short timeouts. */
    static final KubeClientConfig TEST_CLIENT = new KubeClientConfig(null, null, 0, 1, Duration.ofSeconds(3), 256,
            Duration.ofSeconds(1), 0);

    /** A register annotation with one V100. */
    static final String ONE_GPU = "[{\"id\":\"GPU-0\",\"count\":10,\"devmem\":32768,\"devcore\":100,"
            + "\"type\":\"NVIDIA-Tesla V100-PCIE-32GB\",\"mode\":\"hami-core\",\"health\":true}]";

    private KubeFixtures() {
    }

    /** A namespace (or name) derived from the test method: lower case, DNS-1123, at most 50 characters. */
    static String nameOf(TestInfo test) {
        String method = test.getTestMethod().map(m -> m.getName()).orElse("test");
        String dns = method.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-");
        return dns.length() > 50 ? dns.substring(0, 50).replaceAll("-+$", "") : dns;
    }

    /**
     * A synchronous call (fabric8's blocking client, a read of the mock server's store) as a step of a test's flow, on
     * a worker of {@code vertx}. Never on an event loop: the client's own answers arrive on one, and a stage's
     * callbacks may run there.
     */
    static <T> Future<T> onWorker(Vertx vertx, Callable<T> call) {
        return vertx.executeBlocking(call, false);
    }

    /**
     * {@link TestFlow#eventually} for a synchronous condition, asked on a worker every 50 ms; fails the flow after
     * 10 s.
     */
    static Future<Void> eventually(Vertx vertx, String what, BooleanSupplier condition) {
        return TestFlow.eventually(vertx, Duration.ofSeconds(10), what, () -> onWorker(vertx, condition::getAsBoolean));
    }

    /**
     * {@link TestFlow#finish} with {@code check} run on a worker, so that it may read the API server with fabric8's
     * blocking client.
     */
    static <T> void finishOnWorker(VertxTestContext ctx, Vertx vertx, Future<T> flow, TestFlow.Check<T> check) {
        TestFlow.finish(ctx, flow.compose(value -> onWorker(vertx, () -> {
            verify(check, value);
            return value;
        })), value -> { });
    }

    private static <T> void verify(TestFlow.Check<T> check, T value) throws Exception {
        try {
            check.accept(value);
        } catch (Exception | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** A mock API server in CRUD mode with a client and a {@link KubeApi} on it: what most adapter tests start. */
    static MockKube mockKube() {
        MockApiServer server = MockApiServer.start();
        KubernetesClient client = server.client(TEST_CLIENT);
        return new MockKube(server, client, new KubeApi(client, TEST_CLIENT));
    }

    /** {@link #mockKube()}'s parts; closing it closes all three. */
    record MockKube(MockApiServer server, KubernetesClient client, KubeApi api) implements AutoCloseable {
        @Override
        public void close() {
            api.close();
            client.close();
            server.close();
        }
    }

    static NodeFixture node(String name) {
        return new NodeFixture(name);
    }

    static PodFixture pod(String namespace, String name) {
        return new PodFixture(namespace, name);
    }

    /** Node builder. */
    static final class NodeFixture {
        private final String name;
        private final Map<String, String> annotations = new LinkedHashMap<>();
        private final Map<String, String> labels = new LinkedHashMap<>();
        private String gpus;

        NodeFixture(String name) {
            this.name = name;
        }

        NodeFixture annotation(String key, String value) {
            annotations.put(key, value);
            return this;
        }

        NodeFixture label(String key, String value) {
            labels.put(key, value);
            return this;
        }

        NodeFixture allocatableGpus(String quantity) {
            gpus = quantity;
            return this;
        }

        Node build() {
            NodeBuilder b = new NodeBuilder().withNewMetadata().withName(name).withAnnotations(annotations)
                    .withLabels(labels).endMetadata();
            if (gpus != null) {
                b.withNewStatus().addToAllocatable("nvidia.com/gpu", new Quantity(gpus))
                        .addToAllocatable("cpu", new Quantity("8")).endStatus();
            }
            return b.build();
        }
    }

    /** Pod builder. */
    static final class PodFixture {
        private final String namespace;
        private final String name;
        private final Map<String, String> annotations = new LinkedHashMap<>();
        private final Map<String, String> labels = new LinkedHashMap<>();
        private String scheduler = "default-scheduler";
        private String nodeName;
        private String gpus;

        PodFixture(String namespace, String name) {
            this.namespace = namespace;
            this.name = name;
        }

        PodFixture scheduler(String schedulerName) {
            scheduler = schedulerName;
            return this;
        }

        PodFixture annotation(String key, String value) {
            annotations.put(key, value);
            return this;
        }

        PodFixture label(String key, String value) {
            labels.put(key, value);
            return this;
        }

        PodFixture boundTo(String node) {
            nodeName = node;
            return this;
        }

        PodFixture gpus(String count) {
            gpus = count;
            return this;
        }

        Pod build() {
            ContainerBuilder c = new ContainerBuilder().withName("main").withImage("cuda");
            if (gpus != null) {
                c.withNewResources().addToLimits("nvidia.com/gpu", new Quantity(gpus))
                        .addToLimits("nvidia.com/gpumem", new Quantity("4096")).endResources();
            }
            return new PodBuilder().withNewMetadata().withNamespace(namespace).withName(name)
                    .withAnnotations(annotations).withLabels(labels).endMetadata()
                    .withNewSpec().withSchedulerName(scheduler).withNodeName(nodeName).addToContainers(c.build())
                    .endSpec().build();
        }
    }
}
