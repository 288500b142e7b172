package io.vgpu.gateway.http;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.ServerSSLOptions;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vgpu.gateway.core.port.Readiness;
import io.vgpu.gateway.endpoint.Rejections;
import io.vgpu.gateway.endpoint.RequestBody;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * The API listener: mounts what the gateway's route table ({@code io.vgpu.gateway.Routes}) gives it, {@code POST}
 * routes as {@link ApiRoute}s (the webhook and the extender verbs), GET pages any client may read
 * ({@code /healthz}, {@code /readyz}), and GET pages for kube-scheduler's identity only (e.g. {@code /debug/state}), over HTTPS from the configured PEM files (reloaded when they change) or, only when
 * configured, plain HTTP. With client authentication configured ({@link ListenerConfig.Tls#clientAuth()}) the
 * handshake requests a client certificate and verifies a presented one against the client CA; the routes marked
 * {@link ApiRoute#schedulerOnly()} and the scheduler pages then refuse requests without an allowed one
 * ({@link ClientCertificateCheck}). Plain HTTP checks no client (local use only). Only wiring: the handlers hold
 * the logic. Failures of plain HTTP (404, 405, 5xx) get JSON problem bodies.
 *
 * <p>Stopping (undeploy, {@code Vertx.close} on SIGTERM) drains: the server stops accepting, lets
 * in-flight requests finish for up to {@link ListenerConfig#shutdownTimeout()}, then closes.
 */
public final class GatewayVerticle extends VerticleBase {

    private static final Logger LOG = LoggerFactory.getLogger(GatewayVerticle.class);
    private static final int[] PROBLEM_STATUSES = {400, 404, 405, 413, 500, 503};

    private final ListenerConfig config;
    private final List<ApiRoute> routes;
    private final Map<String, Handler<RoutingContext>> pages;
    private final Map<String, Handler<RoutingContext>> schedulerPages;
    private final BiConsumer<String, String> refused;
    private HttpServer server;
    private TlsReloader reloader;

    /**
     * The POST routes and {@code /healthz}, {@code /readyz} (tests and benchmarks that mount a few routes).
     *
     * @param config    listener settings (bind address, port, TLS, shutdown timeout)
     * @param routes    the POST endpoints
     * @param readiness what {@code /readyz} reports
     */
    public GatewayVerticle(ListenerConfig config, List<ApiRoute> routes, Readiness readiness) {
        this(config, routes, Map.of("/healthz", new LivenessHandler(), "/readyz", new ReadinessHandler(readiness)),
                Map.of(), (endpoint, reason) -> { });
    }

    /**
     * @param config         listener settings (bind address, port, TLS and client authentication, shutdown timeout)
     * @param routes         the POST endpoints
     * @param pages          GET pages by path, served to any client ({@code /healthz}, {@code /readyz})
     * @param schedulerPages GET pages by path, served only to the clients {@code /filter} and {@code /bind} accept
     * @param refused        told of every request refused for its client certificate: endpoint, reason
     */
    public GatewayVerticle(ListenerConfig config, List<ApiRoute> routes, Map<String, Handler<RoutingContext>> pages,
                           Map<String, Handler<RoutingContext>> schedulerPages, BiConsumer<String, String> refused) {
        this.config = config;
        this.routes = List.copyOf(routes);
        this.pages = Map.copyOf(pages);
        this.schedulerPages = Map.copyOf(schedulerPages);
        this.refused = refused;
    }

    @Override
    public Future<?> start() {
        Router router = router();
        server = vertx.createHttpServer(serverOptions()).requestHandler(router);
        if (config.tls() == null) {
            return server.listen();
        }
        // failed handshakes (a client certificate of another CA, a client that distrusts ours) happen before HTTP:
        // without a handler Vert.x drops them silently on the server side
        ThrottledWarning handshakes = new ThrottledWarning(LOG);
        server.exceptionHandler(e -> handshakes.warn(() -> "TLS connection failed before HTTP: " + e.getMessage()
                + (config.tls().clientAuth() ? " (a client certificate must chain to " + config.tls().clientCaFile()
                + ")" : "")));
        reloader = new TlsReloader(vertx, config.tls());
        return reloader.snapshot()
                .compose(v -> server.listen())
                .onSuccess(listening -> reloader.watch(listening));
    }

    @Override
    public Future<?> stop() {
        if (reloader != null) {
            reloader.stop();
        }
        return server == null ? Future.succeededFuture()
                : server.shutdown(config.shutdownTimeout().toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The port the API listener is bound to (useful with port 0); valid once started. */
    public int actualPort() {
        return server.actualPort();
    }

    private Router router() {
        Router router = Router.router(vertx);
        ClientCertificateCheck clients = config.tls() != null && config.tls().clientAuth()
                ? new ClientCertificateCheck(config.tls().clientNames(), refused) : null;
        for (ApiRoute api : routes) {
            Route route = router.post(api.path());
            route.handler(new RequestBody(api.maxBodyBytes()));
            if (clients != null && api.schedulerOnly()) {
                route.handler(clients.guard(api.path(), api.rejections()::unauthorized));
            }
            route.handler(api.limiter().guard(api.rejections()::overloaded))
                    .handler(api.handler())
                    .failureHandler(ctx -> {
                        if (ctx.statusCode() == 413) {
                            api.rejections().bodyTooLarge(ctx);
                        } else {
                            ctx.next();
                        }
                    });
        }
        schedulerPages.forEach((path, page) -> {
            Route route = router.get(path);
            if (clients != null) {
                route.handler(clients.guard(path, Rejections::forbidden));
            }
            route.handler(page);
        });
        pages.forEach((path, page) -> router.get(path).handler(page));
        ProblemHandler problems = new ProblemHandler();
        for (int status : PROBLEM_STATUSES) {
            router.errorHandler(status, problems);
        }
        return router;
    }

    private HttpServerOptions serverOptions() {
        HttpServerOptions options = new HttpServerOptions().setHost(config.bindAddress()).setPort(config.httpPort());
        if (config.tls() != null) {
            ServerSSLOptions ssl = TlsReloader.sslOptions(config.tls());
            options.setSsl(true).setKeyCertOptions(ssl.getKeyCertOptions()).setTrustOptions(ssl.getTrustOptions())
                    .setClientAuth(ssl.getClientAuth());
        }
        return options;
    }
}
