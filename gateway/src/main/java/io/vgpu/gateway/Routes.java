package io.vgpu.gateway;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import io.vertx.micrometer.PrometheusScrapingHandler;
import io.vgpu.gateway.core.port.Readiness;
import io.vgpu.gateway.extender.ExtenderRejections;
import io.vgpu.gateway.extender.ExtenderReplies;
import io.vgpu.gateway.http.ApiRoute;
import io.vgpu.gateway.http.InFlightLimiter;
import io.vgpu.gateway.http.LivenessHandler;
import io.vgpu.gateway.http.ReadinessHandler;
import io.vgpu.gateway.metrics.GatewayMetrics;
import io.vgpu.gateway.webhook.WebhookHandler;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The gateway's route table: every endpoint it serves, in one place. The listeners ({@code http.GatewayVerticle},
 * {@code http.MetricsVerticle}) mount exactly what {@link #of} lists; the handlers speak the protocols.
 * <pre>
 *   API listener (VGPU_HTTP_PORT; HTTPS unless VGPU_PLAIN_HTTP)
 *     POST /webhook      any client (the API server)     webhook.WebhookHandler       (it answers its own rejections)
 *     POST /filter       kube-scheduler only             extender.FilterHandler       ExtenderRejections.filter
 *     POST /bind         kube-scheduler only             extender.BindHandler         ExtenderRejections.bind
 *     GET  /healthz      any client                      http.LivenessHandler
 *     GET  /readyz       any client                      http.ReadinessHandler
 *     GET  /debug/state  kube-scheduler only, with VGPU_DEBUG_STATE=api      debug.DebugStateHandler
 *   metrics listener (VGPU_METRICS_PORT; plain HTTP)
 *     GET  /metrics      Prometheus text format
 *     GET  /debug/state  with VGPU_DEBUG_STATE=metrics
 * </pre>
 * "kube-scheduler only" holds where the listener checks client certificates ({@code VGPU_TLS_CLIENT_CA_FILE}).
 * Every POST route has its in-flight bound ({@code VGPU_MAX_IN_FLIGHT}), published as
 * {@code vgpu_http_in_flight{endpoint}}.
 */
final class Routes {

    private Routes() {
    }

    /**
     * The handlers the composition root built, one per endpoint.
     *
     * @param webhook    {@code POST /webhook}
     * @param filter     {@code POST /filter} (an error answer when Kubernetes is off)
     * @param bind       {@code POST /bind} (an error answer when Kubernetes is off)
     * @param readiness  what {@code /readyz} checks
     * @param debugState {@code GET /debug/state}, or null when there is no shared state to show
     */
    record Handlers(WebhookHandler webhook, Handler<RoutingContext> filter, Handler<RoutingContext> bind,
                    Readiness readiness, Handler<RoutingContext> debugState) {
    }

    /**
     * What each listener mounts.
     *
     * @param api            the API listener's POST routes
     * @param pages          the API listener's GET pages for any client
     * @param schedulerPages the API listener's GET pages for kube-scheduler's identity only
     * @param metricsPages   the metrics listener's GET pages
     */
    record Table(List<ApiRoute> api, Map<String, Handler<RoutingContext>> pages,
                 Map<String, Handler<RoutingContext>> schedulerPages,
                 Map<String, Handler<RoutingContext>> metricsPages) {
    }

    /** The table of a gateway configured by {@code config}, its limiters registered in {@code metrics}. */
    static Table of(GatewayConfig config, GatewayMetrics metrics, PrometheusMeterRegistry registry,
                    Handlers handlers) {
        List<ApiRoute> api = List.of(
                new ApiRoute("/webhook", config.webhookMaxBodyBytes(), limiter("/webhook", config, metrics),
                        handlers.webhook(), handlers.webhook()),
                // only kube-scheduler may filter and bind: any other caller could bind pending GPU pods anywhere
                new ApiRoute("/filter", ExtenderReplies.MAX_BODY_BYTES, limiter("/filter", config, metrics),
                        handlers.filter(), ExtenderRejections.filter(ExtenderReplies.MAX_BODY_BYTES, metrics), true),
                new ApiRoute("/bind", ExtenderReplies.MAX_BODY_BYTES, limiter("/bind", config, metrics),
                        handlers.bind(), ExtenderRejections.bind(ExtenderReplies.MAX_BODY_BYTES, metrics), true));
        Map<String, Handler<RoutingContext>> pages = Map.of(
                "/healthz", new LivenessHandler(),
                "/readyz", new ReadinessHandler(handlers.readiness()));
        Map<String, Handler<RoutingContext>> debug = handlers.debugState() == null ? Map.of()
                : Map.of("/debug/state", handlers.debugState());
        Map<String, Handler<RoutingContext>> metricsPages = new LinkedHashMap<>();
        metricsPages.put("/metrics", PrometheusScrapingHandler.create(registry));
        if (config.debugState() == DebugState.METRICS) {
            metricsPages.putAll(debug);
        }
        return new Table(api, pages, config.debugState() == DebugState.API ? debug : Map.of(), metricsPages);
    }

    private static InFlightLimiter limiter(String path, GatewayConfig config, GatewayMetrics metrics) {
        InFlightLimiter limiter = new InFlightLimiter(path, config.maxInFlight());
        metrics.inFlight(path, limiter::inFlight);
        return limiter;
    }
}
