package io.vgpu.gateway.http;

import io.vertx.ext.web.RoutingContext;

/**
 * How an API endpoint answers the requests it does not handle, in its own protocol: the webhook with
 * an AdmissionReview, the extender verbs with an {@code Error} field, both with HTTP 200.
 * Implementations must end the response.
 */
public interface Rejections {

    /** The endpoint is at its in-flight bound (the body has been read). */
    void overloaded(RoutingContext ctx);

    /** The body exceeded the endpoint's limit (it was not read completely). */
    void bodyTooLarge(RoutingContext ctx);
}
