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
 * The metrics listener: plain HTTP on its own port (9395 like HAMi), serving the GET pages it is given: the
 * gateway's route table ({@code io.vgpu.gateway.Routes}) gives it {@code /metrics} (the Prometheus text format) and,
 * where configured, the read-only debug pages. Deploy exactly one instance.
 */
public final class MetricsVerticle extends VerticleBase {

    private final String host;
    private final int port;
    private final Map<String, Handler<RoutingContext>> pages;
    private HttpServer server;

    /**
     * @param host     bind address
     * @param port     port (0 = any free port)
     * @param registry the registry Vert.x and the gateway record into
     */
    public MetricsVerticle(String host, int port, PrometheusMeterRegistry registry) {
        this(host, port, Map.of("/metrics", PrometheusScrapingHandler.create(registry)));
    }

    /**
     * @param host  bind address
     * @param port  port (0 = any free port)
     * @param pages the GET pages it serves, by path ({@code /metrics}, {@code /debug/state})
     */
    public MetricsVerticle(String host, int port, Map<String, Handler<RoutingContext>> pages) {
        this.host = host;
        this.port = port;
        this.pages = Map.copyOf(pages);
    }

    @Override
    public Future<?> start() {
        Router router = Router.router(vertx);
        pages.forEach((path, handler) -> router.get(path).handler(handler));
        server = vertx.createHttpServer().requestHandler(router);
        return server.listen(port, host);
    }

    /** The port the metrics listener is bound to; valid once started. */
    public int actualPort() {
        return server.actualPort();
    }
}
