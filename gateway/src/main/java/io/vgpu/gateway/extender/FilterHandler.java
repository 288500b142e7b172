package io.vgpu.gateway.extender;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import io.vgpu.gateway.core.filter.FilterDecider;
import io.vgpu.gateway.json.GoFields;
import io.vgpu.gateway.scheduling.DecisionFailure;
import io.vgpu.gateway.scheduling.FilterOutcome;
import io.vgpu.gateway.scheduling.FilterService;
import io.vgpu.gateway.scheduling.Stages;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code POST /filter}: decodes {@code ExtenderArgs}; in cache mode ({@code NodeNames}) calls {@link FilterService}
 * and turns its {@link FilterOutcome} into the {@code ExtenderFilterResult} ({@link FilterResponses}); in
 * simulation mode ({@code Nodes}) decides on the node objects alone ({@link FilterDecider#decideSimulation}, nothing
 * reserved). Counts what was decided, then writes the answer: always HTTP 200 with JSON (kube-scheduler discards
 * non-200 bodies); an undecodable body is answered in {@code Error}. A large body is decoded, and a large answer
 * encoded and counted, on a worker thread (their cost grows with containers and nodes), so the event loop is never
 * held for long.
 */
public final class FilterHandler implements Handler<RoutingContext> {

    /** Answers naming more nodes than this are encoded, and their rejections counted, on a worker. */
    private static final int LARGE_ANSWER_NODES = 1_024;

    private final FilterService service;
    private final FilterDecider simulation;
    private final ExtenderMetrics metrics;
    /** The last request's NodeNames, shared by the verticle instances (the handler is one object for all). */
    private final RepeatedNames repeated = new RepeatedNames();

    /**
     * @param service    the filter verb (cache mode)
     * @param simulation the pure decision simulation mode answers with
     * @param metrics    request timing and decision counters
     */
    public FilterHandler(FilterService service, FilterDecider simulation, ExtenderMetrics metrics) {
        this.service = service;
        this.simulation = simulation;
        this.metrics = metrics;
    }

    @Override
    public void handle(RoutingContext ctx) {
        long start = System.nanoTime();
        byte[] body = ExtenderReplies.body(ctx);
        ExtenderReplies.decodeAndCall(body, b -> ExtenderDecoder.filterArgs(b, repeated), this::answer, ExtenderFilterResult::error)
                .compose(r -> Stages.offLoopIf(large(r), () -> ExtenderReplies.encode(r))
                        .otherwise(e -> ExtenderReplies.encode(ExtenderFilterResult.error("cannot encode response: "
                                + e)))
                        .onSuccess(json -> {
                            ExtenderReplies.writeJson(ctx, json);
                            metrics.filter(outcome(r), System.nanoTime() - start);
                        }));
    }

    /** One decoded request's answer. */
    private Future<ExtenderFilterResult> answer(ExtenderArgs args) {
        if (args.pod() == null) {
            metrics.filterFailed(DecisionFailure.INVALID_REQUEST.label());
            return Future.succeededFuture(ExtenderFilterResult.error("extender args missing pod"));
        }
        if (args.simulationMode()) {
            return Stages.offLoop(() -> FilterResponses.simulationMode(
                    simulation.decideSimulation(args.pod(), annotations(args.nodes())), args.nodes()));
        }
        return service.filter(args.pod(), args.nodeNames())
                .compose(outcome -> counted(outcome).map(x -> FilterResponses.cacheMode(outcome, args.nodeNames())));
    }

    /**
     * Counts the outcome before its answer is written: refused reservations, why nothing was placed, and a no-fit's
     * nodes by rejection reason (off the event loop when there are many).
     */
    private Future<Void> counted(FilterOutcome outcome) {
        for (int i = 0; i < outcome.reserveConflicts(); i++) {
            metrics.reserveConflict();
        }
        if (outcome instanceof FilterOutcome.Failed failed) {
            metrics.filterFailed(failed.cause().label());
        }
        if (!(outcome instanceof FilterOutcome.NoFit noFit)) {
            return Future.succeededFuture();
        }
        metrics.filterFailed(noFit.cause().label());
        return Stages.offLoopIf(noFit.rejected().size() > LARGE_ANSWER_NODES, () -> {
            Map<String, Integer> byLabel = new TreeMap<>();
            noFit.rejected().values().forEach(r -> r.labels().forEach(label -> byLabel.merge(label, 1, Integer::sum)));
            byLabel.forEach(metrics::nodesRejected);
            return null;
        });
    }

    /** Each node object's {@code metadata.annotations}, in request order (a node without any has none). */
    private static Map<String, Map<String, String>> annotations(Map<String, JsonNode> nodes) {
        Map<String, Map<String, String>> annotations = new LinkedHashMap<>();
        nodes.forEach((name, node) -> {
            Map<String, String> a = new LinkedHashMap<>();
            JsonNode meta = node.isObject() ? GoFields.get(node, "metadata") : null;
            JsonNode given = meta != null && meta.isObject() ? GoFields.get(meta, "annotations") : null;
            if (given != null && given.isObject()) {
                given.properties().forEach(f -> a.put(f.getKey(), f.getValue().asText()));
            }
            annotations.put(name, a);
        });
        return annotations;
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
