package io.vgpu.gateway.http;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.micrometer.PrometheusScrapingHandler;

import java.util.Map;

/**
 * The metrics listener: {@code GET /metrics} in the Prometheus text format, plain HTTP on its own
 * port (9395 like HAMi), scraping the given registry, plus read-only debug pages ({@code GET /debug/...}).
 * Deploy exactly one instance.
 */
public final class MetricsVerticle extends VerticleBase {

    private final String host;
    private final int port;
    private final PrometheusMeterRegistry registry;
    private final Map<String, Handler<RoutingContext>> debugPages;
    private HttpServer server;

    /**
     * @param host     bind address
     * @param port     port (0 = any free port)
     * @param registry the registry Vert.x and the gateway record into
     */
    public MetricsVerticle(String host, int port, PrometheusMeterRegistry registry) {
        this(host, port, registry, Map.of());
    }

    /**
     * @param debugPages read-only GET pages served beside {@code /metrics}, by path (e.g. {@code /debug/state})
     */
    public MetricsVerticle(String host, int port, PrometheusMeterRegistry registry,
                           Map<String, Handler<RoutingContext>> debugPages) {
        this.host = host;
        this.port = port;
        this.registry = registry;
        this.debugPages = Map.copyOf(debugPages);
    }

    @Override
    public Future<?> start() {
        Router router = Router.router(vertx);
        router.get("/metrics").handler(PrometheusScrapingHandler.create(registry));
        debugPages.forEach((path, handler) -> router.get(path).handler(handler));
        server = vertx.createHttpServer().requestHandler(router);
        return server.listen(port, host);
    }

    /** The port the metrics listener is bound to; valid once started. */
    public int actualPort() {
        return server.actualPort();
    }
}
