package io.vgpu.gateway.http;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vgpu.gateway.GatewayConfig;
import io.vgpu.gateway.core.port.Readiness;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The API listener: {@code POST} routes given as {@link ApiRoute}s (the webhook; later the extender
 * verbs), {@code GET /healthz} and {@code GET /readyz}, over HTTPS from the configured PEM files
 * (reloaded when they change) or, only when configured, plain HTTP. Only wiring: the handlers hold
 * the logic. Failures of plain HTTP (404, 405, 5xx) get JSON problem bodies.
 *
 * <p>Stopping (undeploy, {@code Vertx.close} on SIGTERM) drains: the server stops accepting, lets
 * in-flight requests finish for up to {@link GatewayConfig#shutdownTimeout()}, then closes.
 */
public final class GatewayVerticle extends VerticleBase {

    private static final int[] PROBLEM_STATUSES = {400, 404, 405, 413, 500, 503};

    private final GatewayConfig config;
    private final List<ApiRoute> routes;
    private final Readiness readiness;
    private HttpServer server;
    private TlsReloader reloader;

    /**
     * @param config    listener settings (bind address, port, TLS, shutdown timeout)
     * @param routes    the POST endpoints
     * @param readiness what {@code /readyz} reports
     */
    public GatewayVerticle(GatewayConfig config, List<ApiRoute> routes, Readiness readiness) {
        this.config = config;
        this.routes = List.copyOf(routes);
        this.readiness = readiness;
    }

    @Override
    public Future<?> start() {
        Router router = router();
        server = vertx.createHttpServer(serverOptions()).requestHandler(router);
        if (config.tls() == null) {
            return server.listen();
        }
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
        for (ApiRoute api : routes) {
            Route route = router.post(api.path());
            route.handler(new RequestBody(api.maxBodyBytes()))
                    .handler(api.limiter().guard(api.rejections()::overloaded))
                    .handler(api.handler())
                    .failureHandler(ctx -> {
                        if (ctx.statusCode() == 413) {
                            api.rejections().bodyTooLarge(ctx);
                        } else {
                            ctx.next();
                        }
                    });
        }
        router.get("/healthz").handler(new LivenessHandler());
        router.get("/readyz").handler(new ReadinessHandler(readiness));
        ProblemHandler problems = new ProblemHandler();
        for (int status : PROBLEM_STATUSES) {
            router.errorHandler(status, problems);
        }
        return router;
    }

    private HttpServerOptions serverOptions() {
        HttpServerOptions options = new HttpServerOptions().setHost(config.bindAddress()).setPort(config.httpPort());
        if (config.tls() != null) {
            options.setSsl(true).setKeyCertOptions(TlsReloader.keyCert(config.tls()));
        }
        return options;
    }
}
