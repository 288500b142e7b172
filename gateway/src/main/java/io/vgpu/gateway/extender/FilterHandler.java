package io.vgpu.gateway.extender;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import io.vgpu.gateway.scheduling.FilterService;

/**
 * {@code POST /filter}: decodes {@code ExtenderArgs}, calls {@link FilterService}, writes the
 * {@code ExtenderFilterResult}. Always HTTP 200 with JSON (kube-scheduler discards non-200 bodies);
 * an undecodable body is answered in {@code Error}.
 */
public final class FilterHandler implements Handler<RoutingContext> {

    private final FilterService service;
    private final ExtenderMetrics metrics;

    /**
     * @param service the filter verb
     * @param metrics request timing
     */
    public FilterHandler(FilterService service, ExtenderMetrics metrics) {
        this.service = service;
        this.metrics = metrics;
    }

    @Override
    public void handle(RoutingContext ctx) {
        long start = System.nanoTime();
        ExtenderDecoder.Result<ExtenderArgs> args = ExtenderDecoder.filterArgs(ExtenderReplies.body(ctx));
        Future<ExtenderFilterResult> result = args instanceof ExtenderDecoder.Result.Valid<ExtenderArgs> v
                ? service.filter(v.value())
                : Future.succeededFuture(ExtenderFilterResult.error(((ExtenderDecoder.Result.Invalid<ExtenderArgs>) args).message()));
        result.onComplete(done -> {
            ExtenderFilterResult r = done.succeeded() ? done.result() : ExtenderFilterResult.error(done.cause().toString());
            ExtenderReplies.write(ctx, r);
            metrics.filter(outcome(r), System.nanoTime() - start);
        });
    }

    static String outcome(ExtenderFilterResult r) {
        if (!r.error().isEmpty()) {
            return "error";
        }
        return r.nodeNames() != null && r.nodeNames().size() == 1 || r.nodes() != null ? "fit" : "nofit";
    }
}
