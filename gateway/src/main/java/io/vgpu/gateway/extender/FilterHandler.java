package io.vgpu.gateway.extender;

import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import io.vgpu.gateway.scheduling.FilterService;
import io.vgpu.gateway.scheduling.Stages;

/**
 * {@code POST /filter}: decodes {@code ExtenderArgs}, calls {@link FilterService}, writes the
 * {@code ExtenderFilterResult}. Always HTTP 200 with JSON (kube-scheduler discards non-200 bodies);
 * an undecodable body is answered in {@code Error}. A large body is decoded, and a large answer encoded, on a
 * worker thread (their cost grows with containers and nodes), so the event loop is never held for long.
 */
public final class FilterHandler implements Handler<RoutingContext> {

    /** Answers naming more nodes than this are encoded on a worker. */
    private static final int LARGE_ANSWER_NODES = 1_024;

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
        byte[] body = ExtenderReplies.body(ctx);
        ExtenderReplies.decodeAndCall(body, ExtenderDecoder::filterArgs, service::filter, ExtenderFilterResult::error)
                .compose(r -> Stages.offLoopIf(large(r), () -> ExtenderReplies.encode(r))
                        .otherwise(e -> ExtenderReplies.encode(ExtenderFilterResult.error("cannot encode response: "
                                + e)))
                        .onSuccess(json -> {
                            ExtenderReplies.writeJson(ctx, json);
                            metrics.filter(outcome(r), System.nanoTime() - start);
                        }));
    }

    /** An answer that lists many nodes (a no-fit over a large cluster, simulation mode's node objects). */
    private static boolean large(ExtenderFilterResult r) {
        return r.nodes() != null || r.failedNodes() != null && r.failedNodes().size() > LARGE_ANSWER_NODES
                || r.nodeNames() != null && r.nodeNames().size() > LARGE_ANSWER_NODES;
    }

    static String outcome(ExtenderFilterResult r) {
        if (!r.error().isEmpty()) {
            return "error";
        }
        return r.nodeNames() != null && r.nodeNames().size() == 1 || r.nodes() != null ? "fit" : "nofit";
    }
}
