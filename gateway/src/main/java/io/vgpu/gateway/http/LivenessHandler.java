package io.vgpu.gateway.http;

import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;

/** {@code GET /healthz}: 200 {@code {"status":"ok"}} whenever the event loop answers. */
public final class LivenessHandler implements Handler<RoutingContext> {

    @Override
    public void handle(RoutingContext ctx) {
        ctx.response().setStatusCode(200).putHeader("Content-Type", "application/json").end("{\"status\":\"ok\"}");
    }
}
