package io.vgpu.gateway.http;

import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bounds the requests one endpoint handles at once (DESIGN.md §4: overload is answered, not queued).
 * Past the bound the request is not handled but answered at once by the endpoint's overload reply
 * ({@code /filter} and {@code /bind}: {@code Error: overloaded}; {@code /webhook}: per failurePolicy).
 * Shared by every verticle instance; thread-safe and lock-free.
 */
public final class InFlightLimiter {

    private final String endpoint;
    private final int max;
    private final AtomicInteger inFlight = new AtomicInteger();

    /**
     * @param endpoint the endpoint's name for metrics and logs, e.g. {@code /webhook}
     * @param max      at most this many requests are handled at once (≥ 1)
     */
    public InFlightLimiter(String endpoint, int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be at least 1, got " + max);
        }
        this.endpoint = endpoint;
        this.max = max;
    }

    /** The endpoint's name. */
    public String endpoint() {
        return endpoint;
    }

    /** The bound. */
    public int max() {
        return max;
    }

    /** Requests being handled now. */
    public int inFlight() {
        return inFlight.get();
    }

    /** Takes a slot when one is free; every {@code true} must be paired with one {@link #release()}. */
    public boolean tryAcquire() {
        while (true) {
            int now = inFlight.get();
            if (now >= max) {
                return false;
            }
            if (inFlight.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    /** Returns a slot taken by {@link #tryAcquire()}. */
    public void release() {
        inFlight.decrementAndGet();
    }

    /**
     * A route handler that lets the request through while a slot is free (the slot is returned when
     * the response ends or the connection goes away) and hands it to {@code onOverload} otherwise.
     */
    public Handler<RoutingContext> guard(Handler<RoutingContext> onOverload) {
        return ctx -> {
            if (!tryAcquire()) {
                onOverload.handle(ctx);
                return;
            }
            AtomicBoolean released = new AtomicBoolean();
            ctx.addEndHandler(done -> {
                if (released.compareAndSet(false, true)) {
                    release();
                }
            });
            ctx.next();
        };
    }
}
