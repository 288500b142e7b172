package io.vgpu.loadtest.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.nodelock.NamespacedName;
import io.vgpu.gateway.core.port.ClusterEvents;
import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.PodAddress;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * The {@link FastApiSink} served on a loopback port to replicas in JVMs of their own (a {@link RemoteSink} each):
 * {@code GET /watch} streams every change as a line of JSON, the known objects first (the informers' list, then
 * their watch); {@code POST /call} runs one of the gateway's Kubernetes writes or the pod read and answers its
 * outcome ({@link SinkWire}), or, when the sink lives in a replica's JVM, one of the driver's calls (a user's pod
 * create, the API write count). Runs in the driver's JVM, as the API server would run outside the gateway's, except for
 * the one-replica rows that measure the gateway with an API as fast as a map ({@link Deployment#startWithSinkInReplica}).
 */
final class SinkServer implements AutoCloseable {

    private final Vertx vertx;
    private final FastApiSink sink;
    private final int port;

    private SinkServer(Vertx vertx, FastApiSink sink, int port) {
        this.vertx = vertx;
        this.sink = sink;
        this.port = port;
    }

    static SinkServer start(FastApiSink sink) throws Exception {
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1));
        SinkServer[] self = new SinkServer[1];
        HttpServer server = vertx.createHttpServer().requestHandler(r -> self[0].handle(r));
        int port = server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS)
                .actualPort();
        self[0] = new SinkServer(vertx, sink, port);
        return self[0];
    }

    int port() {
        return port;
    }

    private void handle(HttpServerRequest request) {
        if ("/watch".equals(request.path())) {
            watch(request.response());
        } else if ("/call".equals(request.path())) {
            request.body().onSuccess(body -> call(body, request.response()));
        } else {
            request.response().setStatusCode(404).end();
        }
    }

    /** Every change, as the sink delivers it to a listener (on its watch thread), becomes one line. */
    private void watch(HttpServerResponse response) {
        response.setChunked(true).putHeader("Content-Type", "application/x-ndjson");
        // the headers now, not with the first change: the client's connect waits for them
        response.writeHead();
        sink.subscribe(new ClusterEvents() {
            @Override
            public void nodeUpserted(NodeObservation node) {
                send("node", node);
            }

            @Override
            public void podAdded(ObservedPod pod) {
                send("added", pod);
            }

            @Override
            public void podUpdated(ObservedPod pod) {
                send("updated", pod);
            }

            @Override
            public void podDeleted(ObservedPod lastKnown) {
                send("deleted", lastKnown);
            }

            private void send(String kind, Object o) {
                if (!response.closed()) {
                    response.write(SinkWire.event(kind, o));
                }
            }
        });
    }

    private void call(Buffer body, HttpServerResponse response) {
        JsonNode c;
        try {
            c = SinkWire.JSON.readTree(body.getBytes());
        } catch (IOException e) {
            response.setStatusCode(400).end(e.toString());
            return;
        }
        PodAddress pod = new PodAddress(c.path("namespace").asText(), c.path("name").asText(), c.path("uid").asText());
        NamespacedName owner = new NamespacedName(c.path("namespace").asText(), c.path("name").asText());
        CompletionStage<ObjectNode> answer = switch (c.path("op").asText()) {
            case "patch" -> sink.patchFilterAnnotations(pod, map(c.path("annotations")), map(c.path("labels")))
                    .thenApply(SinkWire::write);
            case "bindPhase" -> sink.patchBindPhase(pod, c.path("phase").asText(), c.path("time").asLong())
                    .thenApply(SinkWire::write);
            case "bind" -> sink.bind(pod, c.path("node").asText()).thenApply(SinkWire::binding);
            case "read" -> sink.readPod(pod).thenApply(p -> {
                ObjectNode o = SinkWire.JSON.createObjectNode();
                o.set("pod", SinkWire.JSON.valueToTree(p.orElse(null)));
                return o;
            });
            case "lock" -> sink.lock(c.path("node").asText(), owner, Duration.ofMillis(c.path("timeoutMillis").asLong()))
                    .thenApply(SinkWire::lock);
            case "release" -> sink.release(c.path("node").asText(), owner, c.path("skipOwnerCheck").asBoolean())
                    .thenApply(SinkWire::release);
            // the driver's own calls when the sink lives in the replica's JVM: a user's create, the write and
            // delete counts
            case "create" -> create(c.path("pod"));
            case "writes" -> CompletableFuture.completedFuture(SinkWire.JSON.createObjectNode()
                    .put("writes", sink.writes()).put("deleted", sink.deleted()));
            default -> null;
        };
        if (answer == null) {
            response.setStatusCode(400).end("unknown op " + c.path("op").asText());
            return;
        }
        answer.whenComplete((o, e) -> {
            if (e != null) {
                response.setStatusCode(500).end(e.toString());
            } else {
                response.putHeader("Content-Type", "application/json").end(o.toString());
            }
        });
    }

    private CompletionStage<ObjectNode> create(JsonNode pod) {
        try {
            sink.createPod(SinkWire.JSON.treeToValue(pod, PodSpec.class));
            return CompletableFuture.completedFuture(SinkWire.JSON.createObjectNode().put("created", true));
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static java.util.Map<String, String> map(JsonNode o) {
        java.util.Map<String, String> m = new java.util.HashMap<>();
        o.fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().asText()));
        return m;
    }

    @Override
    public void close() {
        vertx.close().toCompletionStage().toCompletableFuture().orTimeout(10, TimeUnit.SECONDS)
                .exceptionally(e -> null).join();
    }
}
