package io.vgpu.gateway.http;

import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import io.vgpu.gateway.endpoint.Rejections;

import java.util.Objects;

/**
 * One {@code POST} endpoint of the API listener ({@code /webhook}, {@code /filter}, {@code /bind}) as
 * {@link GatewayVerticle} mounts it:
 * <pre>
 *   body (≤ maxBodyBytes, else rejections.bodyTooLarge)
 *     → kube-scheduler's client certificate, when schedulerOnly and the listener checks them
 *       (else rejections.unauthorized)
 *     → in-flight bound (else rejections.overloaded)
 *     → handler
 * </pre>
 *
 * @param path         the route path, e.g. {@code /webhook}
 * @param maxBodyBytes the largest body read
 * @param limiter      the endpoint's in-flight bound
 * @param handler      handles the request once the body is read and a slot is taken; must end the response
 * @param rejections   the endpoint's answers to overload, oversized bodies and refused clients
 * @param schedulerOnly only kube-scheduler may call it: over HTTPS with client authentication configured, a
 *                      request needs a verified client certificate with an allowed name ({@code /filter},
 *                      {@code /bind}); false for the webhook, which the API server calls without one
 */
public record ApiRoute(String path, long maxBodyBytes, InFlightLimiter limiter, Handler<RoutingContext> handler,
                       Rejections rejections, boolean schedulerOnly) {

    /** A route any client of the listener may call (the webhook). */
    public ApiRoute(String path, long maxBodyBytes, InFlightLimiter limiter, Handler<RoutingContext> handler,
                    Rejections rejections) {
        this(path, maxBodyBytes, limiter, handler, rejections, false);
    }

    /** Requires every component. */
    public ApiRoute {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(limiter, "limiter");
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(rejections, "rejections");
        if (maxBodyBytes < 1) {
            throw new IllegalArgumentException("maxBodyBytes must be positive");
        }
    }
}
