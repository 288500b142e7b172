package io.vgpu.gateway.extender;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import io.vgpu.gateway.scheduling.BindOutcome;
import io.vgpu.gateway.scheduling.BindRequest;
import io.vgpu.gateway.scheduling.BindService;

/**
 * {@code POST /bind}: decodes {@code ExtenderBindingArgs}, calls {@link BindService}, counts a refusal by its cause
 * and writes its {@link BindOutcome} as the {@code ExtenderBindingResult}. Always HTTP 200 with JSON. A large body
 * (up to 1 MiB) is decoded on a worker.
 */
public final class BindHandler implements Handler<RoutingContext> {

    private final BindService service;
    private final ExtenderMetrics metrics;

    /**
     * @param service the bind verb
     * @param metrics request timing and failure counters
     */
    public BindHandler(BindService service, ExtenderMetrics metrics) {
        this.service = service;
        this.metrics = metrics;
    }

    @Override
    public void handle(RoutingContext ctx) {
        long start = System.nanoTime();
        byte[] body = ExtenderReplies.body(ctx);
        ExtenderReplies.decodeAndCall(body, ExtenderDecoder::bindingArgs, this::answer, ExtenderBindingResult::failed)
                .onSuccess(r -> {
                    ExtenderReplies.write(ctx, r);
                    metrics.bind(r.ok() ? "bound" : "error", System.nanoTime() - start);
                });
    }

    private Future<ExtenderBindingResult> answer(ExtenderBindingArgs args) {
        return service.bind(new BindRequest(args.podNamespace(), args.podName(), args.podUid(), args.node()))
                .map(outcome -> {
                    if (outcome instanceof BindOutcome.Refused refused) {
                        metrics.bindFailed(refused.cause().label());
                        return ExtenderBindingResult.failed(refused.message());
                    }
                    return ExtenderBindingResult.OK;
                });
    }
}
