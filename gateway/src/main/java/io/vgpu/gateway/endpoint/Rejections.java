package io.vgpu.gateway.endpoint;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * The contract between the API listener ({@code http.GatewayVerticle}) and the protocol handlers below it: how an
 * API endpoint answers the requests it does not handle, in its own protocol: the webhook with
 * an AdmissionReview, the extender verbs with an {@code Error} field, both with HTTP 200.
 * Implementations must end the response.
 */
public interface Rejections {

    /** The endpoint is at its in-flight bound (the body has been read). */
    void overloaded(RoutingContext ctx);

    /** The body exceeded the endpoint's limit (it was not read completely). */
    void bodyTooLarge(RoutingContext ctx);

    /**
     * The client may not call this endpoint (the listener's client-certificate check); {@code why} says what it must present.
     * By default HTTP 403 with a JSON problem body; the extender verbs answer in their own protocol.
     */
    default void unauthorized(RoutingContext ctx, String why) {
        forbidden(ctx, why);
    }

    /** HTTP 403 with a JSON problem body whose {@code detail} is {@code why}. */
    static void forbidden(RoutingContext ctx, String why) {
        JsonObject problem = new JsonObject().put("type", "about:blank").put("title", "Forbidden").put("status", 403)
                .put("detail", why);
        ctx.response().setStatusCode(403).putHeader("Content-Type", "application/problem+json")
                .end(Buffer.buffer(problem.encode()));
    }
}
