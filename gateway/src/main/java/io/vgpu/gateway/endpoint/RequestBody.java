package io.vgpu.gateway.endpoint;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;

/**
 * The first handler of an API route: reads the request body whole, as bytes, whatever its {@code Content-Type},
 * up to a limit. The API server and kube-scheduler send JSON; a request that says it sends a form or multipart
 * body (or says nothing) is read the same way and answered in the protocol, where Vert.x's {@code BodyHandler}
 * would hand it to its form decoder (the body lost, or a {@code problem+json} 400 when it does not decode as a
 * form). A body over the limit, declared ({@code Content-Length}) or streamed, fails the route with 413 at once,
 * as {@code BodyHandler} does, and the route's failure handler answers it in the protocol; the rest of such a
 * body is not kept. {@code Expect: 100-continue} is answered for bodies within the limit.
 */
public final class RequestBody implements Handler<RoutingContext> {

    private static final String KEY = RequestBody.class.getName();
    private static final int MAX_PREALLOCATED = 64 * 1024;

    private final long limit;

    /** @param limit the largest body read, in bytes */
    public RequestBody(long limit) {
        this.limit = limit;
    }

    @Override
    public void handle(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        if (request.isEnded()) {
            // nothing left to read (the router hands requests over paused, so only a body-less one gets here)
            ctx.put(KEY, Buffer.buffer());
            ctx.next();
            return;
        }
        long declared = declaredLength(request);
        if (declared > limit) {
            ctx.fail(413);
            return;
        }
        if (request.version() != HttpVersion.HTTP_2
                && "100-continue".equalsIgnoreCase(request.getHeader(HttpHeaders.EXPECT))) {
            ctx.response().writeContinue();
        }
        Buffer body = Buffer.buffer((int) Math.min(declared > 0 ? declared : 1024, MAX_PREALLOCATED));
        boolean[] tooLarge = {false};
        request.handler(chunk -> {
            if (tooLarge[0]) {
                return;
            }
            if (body.length() + (long) chunk.length() > limit) {
                tooLarge[0] = true;
                ctx.fail(413);
                return;
            }
            body.appendBuffer(chunk);
        });
        request.endHandler(end -> {
            if (!tooLarge[0]) {
                ctx.put(KEY, body);
                ctx.next();
            }
        });
        request.resume();
    }

    /**
     * The body of a request this handler read ({@link #handle} ran before), empty when it had none.
     *
     * @param ctx the request's routing context
     */
    public static byte[] bytes(RoutingContext ctx) {
        Buffer body = ctx.get(KEY);
        return body == null ? new byte[0] : body.getBytes();
    }

    private static long declaredLength(HttpServerRequest request) {
        String header = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        if (header == null) {
            return -1;
        }
        try {
            return Long.parseLong(header.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
