package io.vgpu.loadtest.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;

import java.io.IOException;

/** The benchmark's HTTP client: keep-alive connections to loopback ports, JSON answers. */
final class BenchHttp implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final long TIMEOUT_MILLIS = 40_000;

    private final Vertx vertx;
    private final HttpClient client;

    /** A client on a Vert.x instance of its own with one event loop (all callbacks on one thread). */
    BenchHttp() {
        this.vertx = Vertx.vertx(new io.vertx.core.VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1)
                .setInternalBlockingPoolSize(1));
        this.client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true).setTcpNoDelay(true),
                new PoolOptions().setHttp1MaxSize(512));
    }

    Vertx vertx() {
        return vertx;
    }

    /**
     * POSTs JSON to {@code 127.0.0.1:port}.
     *
     * @return the status and the parsed answer (an empty object for an empty body)
     */
    Future<Reply> post(int port, String path, Buffer body) {
        return client.request(new RequestOptions().setMethod(HttpMethod.POST).setHost("127.0.0.1").setPort(port)
                        .setURI(path).setTimeout(TIMEOUT_MILLIS).putHeader("Content-Type", "application/json"))
                .compose(req -> req.send(body))
                .compose(resp -> resp.body().map(b -> new Reply(resp.statusCode(), parse(b))));
    }

    private static JsonNode parse(Buffer body) {
        try {
            return body.length() == 0 ? JSON.createObjectNode() : JSON.readTree(body.getBytes());
        } catch (IOException e) {
            return JSON.createObjectNode().put("Error", "undecodable answer: " + e.getMessage());
        }
    }

    @Override
    public void close() {
        client.close();
        vertx.close().toCompletionStage().toCompletableFuture().orTimeout(10, java.util.concurrent.TimeUnit.SECONDS)
                .exceptionally(e -> null).join();
    }

    /**
     * @param status HTTP status
     * @param json   parsed body
     */
    record Reply(int status, JsonNode json) {

        /** The extender's {@code Error}, or the HTTP status when it is not 200; "" when fine. */
        String error() {
            if (status != 200) {
                return "HTTP " + status;
            }
            return json.path("Error").asText("");
        }
    }
}
