package io.vgpu.gateway.extender;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;

import java.nio.charset.StandardCharsets;

/**
 * Writes extender answers: always HTTP 200 with JSON (kube-scheduler discards non-200 bodies,
 * STYLE.md §5), and reads request bodies.
 */
public final class ExtenderReplies {

    /** HAMi reads extender bodies through a 1 MiB limit; we refuse larger ones with a clear Error. */
    public static final long MAX_BODY_BYTES = 1024 * 1024;

    /** Go's {@code encoding/json} writes map keys sorted ({@code FailedNodes}); so do we, byte for byte. */
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

    private ExtenderReplies() {
    }

    /** Writes {@code body} as the HTTP 200 JSON answer. */
    public static void write(RoutingContext ctx, Object body) {
        byte[] json;
        try {
            json = MAPPER.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            json = "{\"Error\":\"cannot encode response\"}".getBytes(StandardCharsets.UTF_8);
        }
        ctx.response().setStatusCode(200).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(Buffer.buffer(json));
    }

    /** The request body (empty when there is none). */
    static byte[] body(RoutingContext ctx) {
        Buffer buffer = ctx.body().buffer();
        return buffer == null ? new byte[0] : buffer.getBytes();
    }
}
