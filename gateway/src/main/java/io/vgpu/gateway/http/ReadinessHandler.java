package io.vgpu.gateway.http;

import io.vertx.core.Handler;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vgpu.gateway.core.port.Readiness;

import java.util.List;

/**
 * {@code GET /readyz}: 200 {@code {"ready":true}} when every readiness check passes, else 503
 * {@code {"ready":false,"notReady":[…]}} naming the checks that do not.
 */
public final class ReadinessHandler implements Handler<RoutingContext> {

    private final Readiness readiness;

    /** @param readiness the checks it reports */
    public ReadinessHandler(Readiness readiness) {
        this.readiness = readiness;
    }

    @Override
    public void handle(RoutingContext ctx) {
        List<String> notReady = readiness.notReady();
        JsonObject body = new JsonObject().put("ready", notReady.isEmpty());
        if (!notReady.isEmpty()) {
            body.put("notReady", new JsonArray(List.copyOf(notReady)));
        }
        ctx.response().setStatusCode(notReady.isEmpty() ? 200 : 503)
                .putHeader("Content-Type", "application/json").end(body.toBuffer());
    }
}
