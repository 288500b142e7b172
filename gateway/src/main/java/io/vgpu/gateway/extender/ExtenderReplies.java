package io.vgpu.gateway.extender;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import io.vgpu.gateway.endpoint.RequestBody;
import io.vgpu.gateway.scheduling.Stages;

import java.nio.charset.StandardCharsets;
import java.util.function.Function;

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

    /** Bodies up to this size are decoded on the event loop (well under a millisecond); larger ones on a worker. */
    static final int INLINE_DECODE_BYTES = 16 * 1024;

    /**
     * Decodes {@code body} (on a worker when it is over {@link #INLINE_DECODE_BYTES}) and calls {@code verb} with the
     * request on the same thread, or answers the decoder's message through {@code error}; a failed {@code verb} is
     * answered through {@code error} with its text. The future never fails.
     *
     * <p>A verb called on the worker starts there: its own CPU-heavy first step (the filter's decision over a large
     * {@code NodeNames}, which goes off the loop anyway) then follows the decode without a second hop from the loop to
     * a worker and back; the verb's asynchronous calls continue on the request's context as before.
     */
    static <A, R> Future<R> decodeAndCall(byte[] body, Function<byte[], ExtenderDecoder.Result<A>> decode,
                                          Function<A, Future<R>> verb, Function<String, R> error) {
        return Stages.offLoopIf(body.length > INLINE_DECODE_BYTES, () -> {
                    ExtenderDecoder.Result<A> args = decode.apply(body);
                    return args instanceof ExtenderDecoder.Result.Valid<A> valid ? verb.apply(valid.value())
                            : Future.succeededFuture(error.apply(((ExtenderDecoder.Result.Invalid<A>) args).message()));
                })
                .compose(answer -> answer)
                .otherwise(e -> error.apply(e.toString()));
    }

    /** Writes {@code body} as the HTTP 200 JSON answer. */
    public static void write(RoutingContext ctx, Object body) {
        writeJson(ctx, encode(body));
    }

    /** {@code body} as the answer's JSON bytes (Go's field order and sorted map keys). */
    static byte[] encode(Object body) {
        try {
            return MAPPER.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            return "{\"Error\":\"cannot encode response\"}".getBytes(StandardCharsets.UTF_8);
        }
    }

    /** Writes encoded JSON as the HTTP 200 answer. */
    static void writeJson(RoutingContext ctx, byte[] json) {
        ctx.response().setStatusCode(200).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(Buffer.buffer(json));
    }

    /** The request body (empty when there is none). */
    static byte[] body(RoutingContext ctx) {
        return RequestBody.bytes(ctx);
    }
}
