package io.vgpu.simulate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.PoolOptions;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.core.request.RequestDeriver;
import io.vgpu.gateway.json.PodJson;
import io.vgpu.simulate.report.SimulationReport;
import io.vgpu.state.model.NodeView;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntConsumer;

/**
 * {@code simulate --mode http}: drives a pod stream through the real gateway of a {@link SimulatedCluster} the way
 * the API server and kube-scheduler would, over real HTTP:
 * <pre>
 *  POST /webhook (AdmissionReview) ─► apply its JSONPatch ─► create the pod in the API server
 *    ─► POST /filter (Pod + NodeNames) ─► POST /bind (the chosen node) ─► (device plugin: success, unlock)
 *                                              │ Error: retry filter + bind, as kube-scheduler re-queues
 * </pre>
 * with up to {@code concurrency} pods in flight. A pod that no node fits stays Pending in the API server (as
 * it would in kube-scheduler's unschedulable queue) and counts as failed with the dominant reason. Measures
 * the latency of each call and of the whole cycle; utilisation and fragmentation come from the gateway's own
 * cluster state once the device plugin has caught up. All calls of the driver run on one event loop of its own
 * Vert.x instance, so counters need no locks.
 */
public final class GatewaySimulation {

    /** Scheduling cycles one pod gets when its bind fails (the first plus retries). */
    static final int BIND_ATTEMPTS = 5;
    /** The pause before the first retry; it doubles for each further one (kube-scheduler backs off too). */
    private static final Duration RETRY_PAUSE = Duration.ofMillis(100);
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(30);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(40);
    /** The longest a created pod waits to show up in the simulator's pod informer before it is filtered anyway. */
    private static final Duration QUEUE_WAIT = Duration.ofSeconds(5);

    private final SimulatedCluster cluster;
    private final int concurrency;
    private final RequestDeriver requests;

    /**
     * @param cluster     the running simulated cluster
     * @param concurrency pods in flight at once (at least 1)
     * @param nvidia      the resource names and defaults the gateway runs with (to size requests)
     */
    public GatewaySimulation(SimulatedCluster cluster, int concurrency, NvidiaConfig nvidia) {
        if (concurrency < 1) {
            throw new IllegalArgumentException("--concurrency must be at least 1, not " + concurrency);
        }
        this.cluster = cluster;
        this.concurrency = concurrency;
        this.requests = new RequestDeriver(nvidia);
    }

    /**
     * Submits {@code workload} and reports once every pod is placed or failed and the device plugin is idle.
     *
     * @param progress called with the number of pods done after each pod (from the driver's thread)
     */
    public SimulationReport run(List<PodSpec> workload, IntConsumer progress) {
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1)
                .setInternalBlockingPoolSize(1));
        try {
            Context context = vertx.getOrCreateContext();
            Run run = new Run(vertx, workload, progress);
            SharedIndexInformer<Pod> queue = cluster.client().pods().inAnyNamespace()
                    .withField("spec.schedulerName", cluster.schedulerName()).inform(new QueueFeed(context, run), 0);
            try {
                long started = System.nanoTime();
                Promise<Void> done = Promise.promise();
                context.runOnContext(v -> run.start(done));
                done.future().toCompletionStage().toCompletableFuture().get(RUN_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                double seconds = (System.nanoTime() - started) / 1e9;
                cluster.awaitDevicePlugin(run.placed, Duration.ofSeconds(30));
                return run.report(seconds);
            } finally {
                queue.stop();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the simulation did not finish: " + e.getMessage(), e);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().orTimeout(10, TimeUnit.SECONDS)
                    .exceptionally(e -> null).join();
        }
    }

    /** One run's state; touched only on the driver's event loop. */
    private final class Run {

        private final Vertx vertx;
        private final List<PodSpec> workload;
        private final IntConsumer progress;
        private final WebClient gateway;
        private final WebClient apiServer;
        private final URI api;
        private final ArrayNode nodeNames = Manifests.JSON.createArrayNode();
        private final Map<String, Integer> failures = new HashMap<>();
        private final List<PodSpec> admitted = new ArrayList<>();
        private final Set<String> seen = new HashSet<>();
        private final Map<String, Promise<Void>> waiting = new HashMap<>();
        private final Samples webhook;
        private final Samples filter;
        private final Samples bind;
        private final Samples cycle;
        private int next;
        private int finished;
        private int placed;
        private int retries;

        Run(Vertx vertx, List<PodSpec> workload, IntConsumer progress) {
            this.vertx = vertx;
            this.workload = workload;
            this.progress = progress;
            PoolOptions pool = new PoolOptions().setHttp1MaxSize(concurrency);
            this.gateway = WebClient.create(vertx, new WebClientOptions().setDefaultHost(cluster.gatewayHost())
                    .setDefaultPort(cluster.gatewayPort()).setKeepAlive(true), pool);
            this.api = URI.create(cluster.apiServer().url());
            this.apiServer = WebClient.create(vertx, new WebClientOptions().setDefaultHost(api.getHost())
                    .setDefaultPort(api.getPort()).setKeepAlive(true), pool);
            cluster.nodeNames().forEach(nodeNames::add);
            int n = workload.size();
            this.webhook = new Samples(n);
            this.filter = new Samples(n * BIND_ATTEMPTS);
            this.bind = new Samples(n * BIND_ATTEMPTS);
            this.cycle = new Samples(n);
        }

        void start(Promise<Void> done) {
            if (workload.isEmpty()) {
                done.complete();
                return;
            }
            for (int lane = 0; lane < Math.min(concurrency, workload.size()); lane++) {
                submitNext(done);
            }
        }

        private void submitNext(Promise<Void> done) {
            if (next >= workload.size()) {
                return;
            }
            PodSpec pod = workload.get(next++);
            long t0 = System.nanoTime();
            schedule(pod).onComplete(outcome -> {
                cycle.add(System.nanoTime() - t0);
                String failure = outcome.succeeded() ? outcome.result() : "simulator: " + outcome.cause().getMessage();
                if (failure == null) {
                    placed++;
                } else {
                    failures.merge(failure, 1, Integer::sum);
                }
                finished++;
                progress.accept(finished);
                if (finished == workload.size()) {
                    done.complete();
                } else {
                    submitNext(done);
                }
            });
        }

        /** The whole cycle of one pod; the future holds null when placed, else the failure reason. */
        private Future<String> schedule(PodSpec pod) {
            return admit(pod).compose(admission -> {
                if (admission.denied() != null) {
                    return Future.succeededFuture(admission.denied());
                }
                return create(admission.pod()).compose(created -> created.failure() != null
                        ? Future.succeededFuture(created.failure())
                        : queued(created.pod()).compose(x -> filterAndBind(created.pod(), 1)));
            });
        }

        /**
         * Completes once the simulator's own pod informer has seen the pod: kube-scheduler takes a pod into its
         * queue from its informer, so the gateway's informers (fed by the same watch) have seen it too by the time
         * it is filtered. Gives up waiting after {@link #QUEUE_WAIT} (the filter then runs anyway).
         */
        private Future<Void> queued(ObjectNode pod) {
            String key = key(pod.path("metadata").path("namespace").asText(), pod.path("metadata").path("name").asText());
            if (seen.remove(key)) {
                return Future.succeededFuture();
            }
            Promise<Void> promise = Promise.promise();
            waiting.put(key, promise);
            return promise.future().timeout(QUEUE_WAIT.toMillis(), TimeUnit.MILLISECONDS)
                    .recover(e -> {
                        waiting.remove(key);
                        return Future.succeededFuture();
                    });
        }

        /** The informer saw {@code key} (called on the driver's context). */
        void seen(String key) {
            Promise<Void> promise = waiting.remove(key);
            if (promise != null) {
                promise.tryComplete();
            } else {
                seen.add(key); // seen before the API server's answer to the create arrived
            }
        }

        private Future<Admission> admit(PodSpec spec) {
            ObjectNode manifest = Manifests.pod(spec);
            ObjectNode review = Manifests.admissionReview(manifest, spec.namespace());
            return post(gateway, "/webhook", review, webhook).map(reply -> {
                JsonNode response = reply.json().path("response");
                if (!response.path("allowed").asBoolean(false)) {
                    return Admission.denied("webhook denied: " + response.path("status").path("message").asText());
                }
                String patch = response.path("patch").asText("");
                ObjectNode pod = patch.isEmpty() ? manifest : JsonPatch.apply(manifest,
                        parse(Base64.getDecoder().decode(patch)));
                PodJson.Result decoded = PodJson.decode(pod, spec.namespace(), spec.name(), spec.uid());
                if (decoded instanceof PodJson.Decoded d) {
                    admitted.add(d.pod());
                }
                return new Admission(pod, null);
            });
        }

        private Future<Created> create(ObjectNode pod) {
            String namespace = pod.path("metadata").path("namespace").asText();
            return post(apiServer, "/api/v1/namespaces/" + namespace + "/pods", pod, null).map(reply ->
                    reply.status() / 100 == 2 ? new Created((ObjectNode) reply.json(), null)
                            : new Created(null, "API server refused the pod: HTTP " + reply.status() + " "
                            + reply.json().path("message").asText()));
        }

        private Future<String> filterAndBind(ObjectNode pod, int attempt) {
            ObjectNode args = Manifests.JSON.createObjectNode();
            args.set("Pod", pod);
            args.set("NodeNames", nodeNames);
            return post(gateway, "/filter", args, filter).compose(reply -> {
                JsonNode result = reply.json();
                String error = result.path("Error").asText("");
                JsonNode chosen = result.path("NodeNames");
                if (!error.isEmpty()) {
                    return Future.succeededFuture("filter error: " + error);
                }
                if (!chosen.isArray() || chosen.isEmpty()) {
                    return Future.succeededFuture(FailureReasons.dominant(failedNodes(result.path("FailedNodes"))));
                }
                return bind(pod, chosen.get(0).asText(), attempt);
            });
        }

        private Future<String> bind(ObjectNode pod, String node, int attempt) {
            JsonNode meta = pod.path("metadata");
            ObjectNode args = Manifests.JSON.createObjectNode().put("PodName", meta.path("name").asText())
                    .put("PodNamespace", meta.path("namespace").asText()).put("PodUID", meta.path("uid").asText())
                    .put("Node", node);
            return post(gateway, "/bind", args, bind).compose(reply -> {
                String error = reply.json().path("Error").asText("");
                if (error.isEmpty()) {
                    return Future.succeededFuture((String) null);
                }
                if (attempt >= BIND_ATTEMPTS) {
                    return Future.succeededFuture("bind error: " + error);
                }
                retries++;
                return vertx.timer(RETRY_PAUSE.toMillis() << (attempt - 1), TimeUnit.MILLISECONDS)
                        .compose(t -> filterAndBind(pod, attempt + 1));
            });
        }

        /** POSTs JSON; an HTTP status other than 2xx from the gateway is a failure of the step. */
        private Future<Reply> post(WebClient client, String path, JsonNode body, Samples samples) {
            long t0 = System.nanoTime();
            return client.post(path).putHeader("Content-Type", "application/json").timeout(CALL_TIMEOUT.toMillis())
                    .sendBuffer(Buffer.buffer(body.toString()))
                    .map(resp -> new Reply(resp.statusCode(), parse(resp.body() == null ? new byte[0]
                            : resp.body().getBytes())))
                    .compose(reply -> {
                        if (samples != null) {
                            samples.add(System.nanoTime() - t0);
                            if (reply.status() != 200) {
                                return Future.failedFuture("HTTP " + reply.status() + " from " + path);
                            }
                        }
                        return Future.succeededFuture(reply);
                    });
        }

        SimulationReport report(double seconds) {
            Collection<NodeView> nodes = cluster.state().nodes();
            long medianCard = Measures.medianCardMemory(nodes);
            List<Long> perGpu = new ArrayList<>();
            for (PodSpec pod : admitted) {
                Long mem = Measures.perGpuMemory(requests, pod, medianCard);
                if (mem != null) {
                    perGpu.add(mem);
                }
            }
            long reference = Measures.median(perGpu);
            return new SimulationReport("http (webhook, filter, bind over HTTP; " + concurrency + " pods in flight)",
                    nodes.size(), Measures.gpuCount(nodes), workload.size(), placed, failures, retries, seconds,
                    List.of(Measures.latency("webhook", webhook.values()), Measures.latency("filter", filter.values()),
                            Measures.latency("bind", bind.values()), Measures.latency("whole cycle", cycle.values())),
                    Measures.utilisation(nodes, true), Measures.utilisation(nodes, false), reference,
                    Fragmentation.of(nodes, Math.max(1, reference)));
        }
    }

    private static String key(String namespace, String name) {
        return namespace + "/" + name;
    }

    /** Feeds the pods the informer sees to the run, on the driver's context. */
    private static final class QueueFeed implements ResourceEventHandler<Pod> {
        private final Context context;
        private final Run run;

        QueueFeed(Context context, Run run) {
            this.context = context;
            this.run = run;
        }

        @Override
        public void onAdd(Pod pod) {
            String key = key(pod.getMetadata().getNamespace(), pod.getMetadata().getName());
            context.runOnContext(v -> run.seen(key));
        }

        @Override
        public void onUpdate(Pod before, Pod after) {
            // only the first sight matters
        }

        @Override
        public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
            // pods are not deleted during a run
        }
    }

    private static Map<String, String> failedNodes(JsonNode failed) {
        Map<String, String> out = new HashMap<>();
        failed.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    private static JsonNode parse(byte[] json) {
        try {
            return json.length == 0 ? Manifests.JSON.createObjectNode() : Manifests.JSON.readTree(json);
        } catch (IOException e) {
            throw new IllegalArgumentException("undecodable JSON: " + e.getMessage(), e);
        }
    }

    /** A webhook answer: the pod to create, or why it was refused. */
    private record Admission(ObjectNode pod, String denied) {
        static Admission denied(String why) {
            return new Admission(null, why);
        }
    }

    /** The API server's answer to the create: the stored pod, or why it was refused. */
    private record Created(ObjectNode pod, String failure) {
    }

    /** A status and a parsed JSON body. */
    private record Reply(int status, JsonNode json) {
    }

    /** Latency samples in nanoseconds. */
    private static final class Samples {
        private long[] values;
        private int size;

        Samples(int capacity) {
            values = new long[Math.max(1, capacity)];
        }

        void add(long nanos) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = nanos;
        }

        long[] values() {
            return Arrays.copyOf(values, size);
        }
    }
}
