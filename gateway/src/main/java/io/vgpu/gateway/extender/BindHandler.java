package io.vgpu.gateway.extender;

import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import io.vgpu.gateway.scheduling.BindService;

/**
 * {@code POST /bind}: decodes {@code ExtenderBindingArgs}, calls {@link BindService}, writes the
 * {@code ExtenderBindingResult}. Always HTTP 200 with JSON. A large body (up to 1 MiB) is decoded on a worker.
 */
public final class BindHandler implements Handler<RoutingContext> {

    private final BindService service;
    private final ExtenderMetrics metrics;

    /**
     * @param service the bind verb
     * @param metrics request timing
     */
    public BindHandler(BindService service, ExtenderMetrics metrics) {
        this.service = service;
        this.metrics = metrics;
    }

    @Override
    public void handle(RoutingContext ctx) {
        long start = System.nanoTime();
        byte[] body = ExtenderReplies.body(ctx);
        ExtenderReplies.decodeAndCall(body, ExtenderDecoder::bindingArgs, service::bind, ExtenderBindingResult::failed)
                .onSuccess(r -> {
                    ExtenderReplies.write(ctx, r);
                    metrics.bind(r.ok() ? "bound" : "error", System.nanoTime() - start);
                });
    }
}
