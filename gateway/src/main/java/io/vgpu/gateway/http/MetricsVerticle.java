package io.vgpu.gateway.http;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import io.vertx.micrometer.PrometheusScrapingHandler;

/**
 * The metrics listener: {@code GET /metrics} in the Prometheus text format, plain HTTP on its own
 * port (9395 like HAMi), scraping the given registry. Deploy exactly one instance.
 */
public final class MetricsVerticle extends VerticleBase {

    private final String host;
    private final int port;
    private final PrometheusMeterRegistry registry;
    private HttpServer server;

    /**
     * @param host     bind address
     * @param port     port (0 = any free port)
     * @param registry the registry Vert.x and the gateway record into
     */
    public MetricsVerticle(String host, int port, PrometheusMeterRegistry registry) {
        this.host = host;
        this.port = port;
        this.registry = registry;
    }

    @Override
    public Future<?> start() {
        Router router = Router.router(vertx);
        router.get("/metrics").handler(PrometheusScrapingHandler.create(registry));
        server = vertx.createHttpServer().requestHandler(router);
        return server.listen(port, host);
    }

    /** The port the metrics listener is bound to; valid once started. */
    public int actualPort() {
        return server.actualPort();
    }
}
