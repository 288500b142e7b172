package io.vgpu.gateway.endpoint;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;

import java.util.Arrays;

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
    /**
     * The largest declared length read straight into an array of its size: a /filter at 10,000 nodes (about
     * 170 KB) is read without growing a buffer or copying it at the end (at 5,000 nodes that was 270 KB of garbage
     * for an 81 KB body, most of a filter's allocation). Larger declared bodies, and bodies whose length is not
     * declared, grow a buffer from at most {@link #MAX_FIRST_BUFFER}: what a client that declares much and sends
     * little can make the gateway hold stays bounded.
     */
    static final int MAX_PREALLOCATED = 256 * 1024;
    private static final int MAX_FIRST_BUFFER = 64 * 1024;

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
            ctx.put(KEY, new byte[0]);
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
        Accumulator body = new Accumulator(declared);
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
            body.append(chunk);
        });
        request.endHandler(end -> {
            if (!tooLarge[0]) {
                ctx.put(KEY, body.bytes());
                ctx.next();
            }
        });
        request.resume();
    }

    /**
     * The body of a request this handler read ({@link #handle} ran before), empty when it had none: the array read,
     * not a copy (callers only read it).
     *
     * @param ctx the request's routing context
     */
    public static byte[] bytes(RoutingContext ctx) {
        byte[] body = ctx.get(KEY);
        return body == null ? new byte[0] : body;
    }

    /**
     * A body's bytes as they arrive: into an array of the declared length when one is declared (up to
     * {@link #MAX_PREALLOCATED}), handed on as it is; else, or when more than declared arrives, into a growing buffer.
     */
    static final class Accumulator {
        private byte[] exact;
        private int filled;
        private Buffer grown;

        Accumulator(long declared) {
            if (declared > 0 && declared <= MAX_PREALLOCATED) {
                exact = new byte[(int) declared];
            } else {
                grown = Buffer.buffer((int) Math.min(declared > 0 ? declared : 1024, MAX_FIRST_BUFFER));
            }
        }

        long length() {
            return grown != null ? grown.length() : filled;
        }

        void append(Buffer chunk) {
            int n = chunk.length();
            if (grown == null && filled + n <= exact.length) {
                chunk.getBytes(0, n, exact, filled);
                filled += n;
                return;
            }
            if (grown == null) {
                grown = Buffer.buffer(filled + n).appendBytes(exact, 0, filled);
                exact = null;
            }
            grown.appendBuffer(chunk);
        }

        /** The bytes read, without a copy when exactly the declared length came. */
        byte[] bytes() {
            if (grown != null) {
                return grown.getBytes();
            }
            return filled == exact.length ? exact : Arrays.copyOf(exact, filled);
        }
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
