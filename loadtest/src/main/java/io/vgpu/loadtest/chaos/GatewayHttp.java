package io.vgpu.loadtest.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The driver's HTTP side: JSON POSTs to a replica's API listener and GETs on its metrics listener, blocking the
 * calling thread (driver threads only). A replica that is down or dies mid-call raises {@link IOException}; an
 * answer, whatever its status, is a {@link Reply}.
 */
final class GatewayHttp {

    static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2))
            .version(HttpClient.Version.HTTP_1_1).build();

    /**
     * One answer.
     *
     * @param status HTTP status
     * @param body   body text
     */
    record Reply(int status, String body) {

        /** The body as JSON (a parse failure is an {@link IOException}). */
        JsonNode json() throws IOException {
            return JSON.readTree(body);
        }
    }

    Reply post(int port, String path, String body, Duration timeout) throws IOException {
        return send(HttpRequest.newBuilder(uri(port, path)).timeout(timeout).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build());
    }

    Reply get(int port, String path, Duration timeout) throws IOException {
        return send(HttpRequest.newBuilder(uri(port, path)).timeout(timeout).GET().build());
    }

    private Reply send(HttpRequest request) throws IOException {
        try {
            HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return new Reply(r.statusCode(), r.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    private static URI uri(int port, String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }
}
