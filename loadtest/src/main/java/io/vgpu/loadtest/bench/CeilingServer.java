package io.vgpu.loadtest.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The ceiling of this machine: a bare Vert.x endpoint, set up as the gateway's listener is (router, body handler,
 * one verticle instance per core) that only decodes the request JSON and answers a constant-shaped result:
 * {@code /filter} names the first node of {@code NodeNames}, {@code /bind} answers no error. What the gateway adds
 * on top of this is its own cost. The benchmark runs it in a JVM of its own ({@link #fork}, {@link #main}), so that
 * neither the load generator nor the gateway shares its process.
 */
public final class CeilingServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Vertx vertx;
    private final int port;

    private CeilingServer(Vertx vertx, int port) {
        this.vertx = vertx;
        this.port = port;
    }

    static CeilingServer start() throws Exception {
        Vertx vertx = Vertx.vertx();
        List<Bare> deployed = new CopyOnWriteArrayList<>();
        vertx.deployVerticle(() -> {
            Bare b = new Bare();
            deployed.add(b);
            return b;
        }, new DeploymentOptions().setInstances(Runtime.getRuntime().availableProcessors()))
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        return new CeilingServer(vertx, deployed.get(0).server.actualPort());
    }

    int port() {
        return port;
    }

    /** Starts the bare endpoint in a JVM of its own; {@code READY <port>} says where. */
    static Forked fork(List<String> jvmOptions) throws Exception {
        ReplicaProcess p = ReplicaProcess.start("ceiling", jvmOptions, CeilingServer.class, List.of());
        try {
            return new Forked(p, Integer.parseInt(p.await("READY", Duration.ofMinutes(2)).trim()));
        } catch (Exception | Error e) {
            p.close();
            throw e;
        }
    }

    /**
     * The bare endpoint in its own JVM.
     *
     * @param process the JVM
     * @param port    its port on 127.0.0.1
     */
    record Forked(ReplicaProcess process, int port) implements AutoCloseable {
        @Override
        public void close() {
            process.close();
        }
    }

    /** The forked JVM: serves until {@code quit} or the end of stdin. */
    public static void main(String[] args) throws Exception {
        try (CeilingServer server = start()) {
            System.out.println("READY " + server.port());
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = in.readLine(); line != null && !line.equals("quit"); line = in.readLine()) {
                // no other command
            }
        }
        System.exit(0);
    }

    @Override
    public void close() {
        vertx.close().toCompletionStage().toCompletableFuture().orTimeout(10, TimeUnit.SECONDS)
                .exceptionally(e -> null).join();
    }

    private static final class Bare extends VerticleBase {
        private HttpServer server;

        @Override
        public Future<?> start() {
            Router router = Router.router(vertx);
            router.post("/filter").handler(BodyHandler.create(false).setBodyLimit(1024 * 1024)).handler(Bare::filter);
            router.post("/bind").handler(BodyHandler.create(false).setBodyLimit(1024 * 1024)).handler(Bare::bind);
            server = vertx.createHttpServer().requestHandler(router);
            return server.listen(0, "127.0.0.1");
        }

        private static void filter(RoutingContext ctx) {
            JsonNode args = decode(ctx);
            String first = args.path("NodeNames").path(0).asText("");
            reply(ctx, "{\"Nodes\":null,\"NodeNames\":[\"" + first
                    + "\"],\"FailedNodes\":{},\"FailedAndUnresolvableNodes\":null,\"Error\":\"\"}");
        }

        private static void bind(RoutingContext ctx) {
            decode(ctx);
            reply(ctx, "{\"Error\":\"\"}");
        }

        private static JsonNode decode(RoutingContext ctx) {
            try {
                return JSON.readTree(ctx.body().buffer().getBytes());
            } catch (IOException e) {
                return JSON.createObjectNode();
            }
        }

        private static void reply(RoutingContext ctx, String json) {
            ctx.response().putHeader("Content-Type", "application/json").end(Buffer.buffer(json));
        }
    }
}
