package io.vgpu.deviceplugin.monitor;

import java.util.Locale;
import java.util.Objects;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Serves {@code GET /metrics} (Prometheus text format 0.0.4, HAMi's port 9394) from a Micrometer
 * Prometheus registry, and runs the {@link FeedbackLoop} on a periodic timer. Wiring only: the
 * scrape and every tick run on worker threads ({@code executeBlocking}), never on the event loop,
 * because both touch NVML (JNI), files and memory maps. Ticks are ordered; scrapes are not. Every tick
 * counts in {@code vgpu_monitor_feedback_ticks_total{outcome}}: {@code observed}, {@code failed} (the pod
 * lookup or the scan failed, {@code Observe} skipped), {@code paused}, {@code busy}.
 */
final class MonitorVerticle extends VerticleBase {

    private static final Logger LOG = LoggerFactory.getLogger(MonitorVerticle.class);
    /** The Prometheus text exposition format the registry writes by default. */
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final MonitorConfig config;
    private final PrometheusMeterRegistry registry;
    private final FeedbackLoop feedback;
    private HttpServer server;
    private long timer = -1;

    /**
     * @param config   listen address, port and tick interval are used
     * @param registry the registry to expose, with the monitor's {@link VgpuCollector} registered on it
     *                 ({@link VgpuMonitor#create} does that)
     * @param feedback the tick to run every {@link MonitorConfig#scanInterval()}
     */
    public MonitorVerticle(MonitorConfig config, PrometheusMeterRegistry registry, FeedbackLoop feedback) {
        this.config = Objects.requireNonNull(config, "config");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.feedback = Objects.requireNonNull(feedback, "feedback");
    }

    @Override
    public Future<?> start() {
        Router router = Router.router(vertx);
        router.get("/metrics").handler(this::scrape);
        router.errorHandler(500, this::problem);
        return vertx.createHttpServer()
                .requestHandler(router)
                .listen(config.port(), config.bindHost())
                .map(this::started);
    }

    private HttpServer started(HttpServer listening) {
        server = listening;
        // first scan right away rather than after one interval, so regions are tracked before the first scrape
        timer = vertx.setPeriodic(1, config.scanInterval().toMillis(), id -> tick());
        LOG.info("vGPU monitor: metrics on {}:{}/metrics, scanning {} every {}", config.bindHost(),
                listening.actualPort(), config.containersDirectory(), config.scanInterval());
        return listening;
    }

    @Override
    public Future<?> stop() {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
        return server == null ? Future.succeededFuture() : server.close();
    }

    /** The port the server listens on (differs from the configured one when that is 0). */
    public int actualPort() {
        return server == null ? -1 : server.actualPort();
    }

    private void scrape(RoutingContext ctx) {
        vertx.executeBlocking(registry::scrape, false)
                .onSuccess(text -> ctx.response().putHeader("Content-Type", CONTENT_TYPE).end(text))
                .onFailure(ctx::fail);
    }

    private void tick() {
        vertx.executeBlocking(feedback::tick, true)
                .onSuccess(report -> Counter.builder("vgpu.monitor.feedback.ticks")
                        .description("Feedback ticks of the vGPU monitor by how they ended; failed: Observe skipped")
                        .tag("outcome", report.outcome().name().toLowerCase(Locale.ROOT))
                        .register(registry).increment())
                .onFailure(e -> LOG.error("feedback tick failed unexpectedly", e));
    }

    private void problem(RoutingContext ctx) {
        Throwable failure = ctx.failure();
        LOG.error("GET {} failed", ctx.request().path(), failure);
        ctx.response().setStatusCode(500).putHeader("Content-Type", "application/problem+json")
                .end(new JsonObject().put("title", "metrics collection failed").put("status", 500)
                        .put("detail", String.valueOf(failure)).encode());
    }
}
