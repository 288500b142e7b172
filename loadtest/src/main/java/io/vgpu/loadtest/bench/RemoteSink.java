package io.vgpu.loadtest.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.parsetools.RecordParser;
import io.vgpu.gateway.core.nodelock.NamespacedName;
import io.vgpu.gateway.core.port.BindingOutcome;
import io.vgpu.gateway.core.port.ClusterEvents;
import io.vgpu.gateway.core.port.LockOutcome;
import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.ObservedPods;
import io.vgpu.gateway.core.port.PodAddress;
import io.vgpu.gateway.core.port.ReleaseOutcome;
import io.vgpu.gateway.core.port.WriteOutcome;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A replica's view of the {@link SinkServer}, in the replica's own JVM, as fabric8 is the real gateway's: writes
 * and the pod read are HTTP calls; the cache is a {@link MirrorCache} fed by the watch stream (the informers), and each change
 * is handed to the listeners after the mirror has it, one at a time on this client's event loop.
 */
final class RemoteSink extends MirrorCache implements ApiStandIn, AutoCloseable {

    private final Vertx vertx;
    private final Context context;
    private final HttpClient client;
    private final int port;
    private final List<ClusterEvents> listeners = new CopyOnWriteArrayList<>();

    private RemoteSink(Vertx vertx, int port) {
        this.vertx = vertx;
        this.context = vertx.getOrCreateContext();
        this.port = port;
        this.client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true).setTcpNoDelay(true),
                new PoolOptions().setHttp1MaxSize(64));
    }

    /** Connects and starts the watch; the mirror fills from the server's list, then follows its changes. */
    static RemoteSink connect(int port) throws Exception {
        RemoteSink sink = new RemoteSink(Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1)), port);
        Promise<Void> watching = Promise.promise();
        sink.context.runOnContext(v -> sink.client.request(new RequestOptions().setMethod(HttpMethod.GET)
                        .setHost("127.0.0.1").setPort(port).setURI("/watch").setIdleTimeout(0))
                .compose(r -> r.send())
                .onSuccess(resp -> {
                    resp.handler(RecordParser.newDelimited("\n", sink::onLine));
                    watching.complete();
                })
                .onFailure(watching::fail));
        // generous: on a loaded machine a cold JVM takes tens of seconds before its first request is answered
        watching.future().toCompletionStage().toCompletableFuture().get(5, TimeUnit.MINUTES);
        return sink;
    }

    /** Objects the mirror holds: nodes and pods. */
    int[] mirrored() {
        return new int[] {nodes.size(), pods.size()};
    }

    private void onLine(Buffer line) {
        JsonNode e;
        try {
            e = SinkWire.JSON.readTree(line.getBytes());
        } catch (IOException ex) {
            return;
        }
        JsonNode o = e.path("o");
        switch (e.path("e").asText()) {
            case "node" -> {
                NodeObservation n = SinkWire.node(o);
                nodes.put(n.name(), n);
                listeners.forEach(l -> l.nodeUpserted(n));
            }
            case "added", "updated" -> {
                // trimmed and pooled as fabric8's informers keep them (KubeObjects.pod): the heap rows weigh it
                ObservedPod p = ObservedPods.canonical(SinkWire.pod(o));
                boolean known = pods.put(key(p), p) != null;
                listeners.forEach(l -> {
                    if (known) {
                        l.podUpdated(p);
                    } else {
                        l.podAdded(p);
                    }
                });
            }
            case "deleted" -> {
                ObservedPod p = SinkWire.pod(o);
                pods.remove(key(p));
                listeners.forEach(l -> l.podDeleted(p));
            }
            default -> {
                // a kind this client does not know: ignored, as an informer ignores an unknown type
            }
        }
    }

    /**
     * Empties the mirror, on the watch's context (blocking until done), so that a heap figure taken next shows what
     * the mirror alone kept. For the end of a heap row only: the replica's reads find nothing afterwards.
     */
    void dropMirror() throws Exception {
        Promise<Void> dropped = Promise.promise();
        context.runOnContext(v -> {
            pods.clear();
            nodes.clear();
            dropped.complete();
        });
        dropped.future().toCompletionStage().toCompletableFuture().get(1, TimeUnit.MINUTES);
    }

    @Override
    public void subscribe(ClusterEvents listener) {
        // on the watch's context, so that the replay and the following changes do not interleave
        context.runOnContext(v -> {
            listeners.add(listener);
            replayTo(listener);
        });
    }

    // ------------------------------------------------------------------ PodWriter, NodeLockPort

    @Override
    public CompletionStage<WriteOutcome> patchFilterAnnotations(PodAddress pod, Map<String, String> annotations,
                                                                Map<String, String> labels) {
        ObjectNode c = call("patch", pod);
        c.set("annotations", SinkWire.JSON.valueToTree(annotations));
        c.set("labels", SinkWire.JSON.valueToTree(labels));
        return send(c, SinkWire::write, WriteOutcome.Unreachable::new);
    }

    @Override
    public CompletionStage<WriteOutcome> patchBindPhase(PodAddress pod, String phase, long bindTimeSeconds) {
        return send(call("bindPhase", pod).put("phase", phase).put("time", bindTimeSeconds), SinkWire::write,
                WriteOutcome.Unreachable::new);
    }

    @Override
    public CompletionStage<BindingOutcome> bind(PodAddress pod, String node) {
        return send(call("bind", pod).put("node", node), SinkWire::binding,
                m -> new BindingOutcome.Failed(new WriteOutcome.Unreachable(m)));
    }

    @Override
    public CompletionStage<Optional<ObservedPod>> readPod(PodAddress pod) {
        return send(call("read", pod), o -> Optional.ofNullable(SinkWire.pod(o.get("pod"))), m -> {
            throw new IllegalStateException(m);
        });
    }

    @Override
    public CompletionStage<LockOutcome> lock(String node, NamespacedName pod, Duration timeout) {
        return send(call("lock", new PodAddress(pod.namespace(), pod.name(), "")).put("node", node)
                .put("timeoutMillis", timeout.toMillis()), SinkWire::lock, LockOutcome.Failed::new);
    }

    @Override
    public CompletionStage<ReleaseOutcome> release(String node, NamespacedName pod, boolean skipOwnerCheck) {
        return send(call("release", new PodAddress(pod.namespace(), pod.name(), "")).put("node", node)
                .put("skipOwnerCheck", skipOwnerCheck), SinkWire::release, ReleaseOutcome.Failed::new);
    }

    private static ObjectNode call(String op, PodAddress pod) {
        return SinkWire.JSON.createObjectNode().put("op", op).put("namespace", pod.namespace()).put("name", pod.name())
                .put("uid", pod.uid());
    }

    /**
     * Sends one call; an HTTP or transport failure becomes the port's "unreachable" outcome. The exchange runs on this
     * client's own context, whoever calls: the gateway calls from its event loops, another Vert.x instance's threads,
     * and a response handled there could end before its body was read, leaving the call unanswered for good (the full
     * benchmark's {@code /filter} rows stalled after a few dozen filters; {@code RemoteSinkCallsTest}).
     */
    private <T> CompletionStage<T> send(ObjectNode call, Function<JsonNode, T> answer, Function<String, T> failed) {
        Promise<T> answered = Promise.promise();
        context.runOnContext(v -> exchange(call, answer, failed).onComplete(answered));
        return answered.future().toCompletionStage();
    }

    private <T> Future<T> exchange(ObjectNode call, Function<JsonNode, T> answer, Function<String, T> failed) {
        return client.request(new RequestOptions().setMethod(HttpMethod.POST).setHost("127.0.0.1").setPort(port)
                        .setURI("/call"))
                .compose(r -> r.send(Buffer.buffer(call.toString())))
                .compose(r -> r.body().map(b -> {
                    if (r.statusCode() != 200) {
                        return failed.apply("sink: HTTP " + r.statusCode() + ": " + b);
                    }
                    try {
                        return answer.apply(SinkWire.JSON.readTree(b.getBytes()));
                    } catch (IOException e) {
                        return failed.apply("sink: " + e);
                    }
                }))
                .recover(e -> Future.succeededFuture(failed.apply("sink: " + e.getMessage())));
    }

    @Override
    public void close() {
        vertx.close().toCompletionStage().toCompletableFuture().orTimeout(10, TimeUnit.SECONDS)
                .exceptionally(e -> null).join();
    }
}
