package io.vgpu.gateway;

import com.sun.management.OperatingSystemMXBean;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import io.vertx.core.VertxOptions;
import io.vgpu.gateway.config.ConfigurationException;
import io.vgpu.gateway.config.EnvReader;
import io.vgpu.gateway.config.GoDuration;
import io.vgpu.gateway.core.quota.QuotaBook;
import io.vgpu.gateway.core.webhook.WebhookDecider;
import io.vgpu.gateway.http.ApiRoute;
import io.vgpu.gateway.http.GatewayMetrics;
import io.vgpu.gateway.http.GatewayVerticle;
import io.vgpu.gateway.http.GatewayVertx;
import io.vgpu.gateway.http.InFlightLimiter;
import io.vgpu.gateway.http.MetricsVerticle;
import io.vgpu.gateway.core.dra.DraConfig;
import io.vgpu.gateway.webhook.DraAdmission;
import io.vgpu.gateway.webhook.WebhookHandler;
import io.vgpu.gateway.webhook.WebhookService;
import io.vgpu.state.model.ClusterState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code vgpu-gateway serve}: the composition root (STYLE.md §3). Parses {@link GatewayConfig} (fail
 * fast: exit status 2 with every problem listed), builds the services, deploys the API and metrics
 * listeners, and on SIGTERM drains in-flight requests before exiting. The cluster side (Hazelcast member,
 * Kubernetes informers, /filter and /bind) is built by {@link GatewayAssembly}; {@code /readyz} turns ready
 * once the informers have synced and the shared state is loaded.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Run the gateway: /webhook, /healthz, /readyz on VGPU_HTTP_PORT, /metrics on VGPU_METRICS_PORT.",
            "Configured only by VGPU_* environment variables (see README, 'Running the gateway')."})
public final class ServeCommand implements Callable<Integer> {

    /** Exit status when the configuration is unusable. */
    static final int CONFIG_ERROR = 2;
    /** Exit status when the listeners cannot start. */
    static final int START_ERROR = 1;

    private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final Map<String, String> env;
    private final ViewFeeds feeds;

    ServeCommand() {
        this(System.getenv());
    }

    ServeCommand(Map<String, String> env) {
        this(env, ViewFeeds.DIRECT);
    }

    /**
     * @param env   where the {@code VGPU_*} settings come from
     * @param feeds how change events reach the local views ({@link ViewFeeds#DIRECT} but in the chaos harness)
     */
    ServeCommand(Map<String, String> env, ViewFeeds feeds) {
        this.env = env;
        this.feeds = feeds;
    }

    @Override
    public Integer call() throws InterruptedException {
        GatewayConfig config;
        ClusterConfig cluster;
        DraConfig dra;
        try {
            EnvReader reader = new EnvReader(env, GatewayConfig.PREFIX);
            config = GatewayConfig.read(reader);
            cluster = ClusterConfig.read(reader, config == null ? "0.0.0.0" : config.bindAddress());
            dra = DraSettings.read(reader);
            reader.finish();
        } catch (ConfigurationException e) {
            System.err.println(e.getMessage());
            return CONFIG_ERROR;
        }
        LOG.info("starting vgpu-gateway: {}", config.redacted());
        logHeap();
        Running running;
        try {
            running = start(config, cluster, dra, feeds, new VertxOptions()).toCompletionStage().toCompletableFuture()
                    .get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            LOG.error("vgpu-gateway could not start", e.getCause() == null ? e : e.getCause());
            return START_ERROR;
        }
        LOG.info("vgpu-gateway listening: api {}://{}:{} metrics http://{}:{}/metrics",
                config.plainHttp() ? "http" : "https", config.bindAddress(), running.apiPort(), config.bindAddress(),
                running.metricsPort());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("shutting down: draining in-flight requests for up to {}",
                    GoDuration.format(config.shutdownTimeout()));
            running.closeAndWait(config.shutdownTimeout().plusSeconds(5));
            LOG.info("vgpu-gateway stopped");
            stopped.countDown();
        }, "vgpu-shutdown"));
        stopped.await();
        return 0;
    }

    private static void logHeap() {
        long visible = ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getTotalMemorySize();
        JvmHeap.Line line = JvmHeap.describe(Runtime.getRuntime().maxMemory(), visible,
                ManagementFactory.getRuntimeMXBean().getInputArguments());
        if (line.warning()) {
            LOG.warn(line.text());
        } else {
            LOG.info(line.text());
        }
    }

    /**
     * Builds the services and deploys the listeners: the one start path, shared by {@code serve} and by
     * {@code simulate} (which runs the same gateway against its in-process API server).
     *
     * @return the running gateway once both listeners are bound; a failed start leaves nothing running
     */
    public static Future<Running> start(GatewayConfig config, ClusterConfig cluster) {
        return start(config, cluster, new VertxOptions());
    }

    /**
     * {@link #start(GatewayConfig, ClusterConfig)} on a Vert.x built from {@code vertxOptions} (tests tighten the
     * blocked-thread checker with it).
     */
    static Future<Running> start(GatewayConfig config, ClusterConfig cluster, VertxOptions vertxOptions) {
        return start(config, cluster, DraConfig.DEFAULTS, ViewFeeds.DIRECT, vertxOptions);
    }

    /** {@link #start(GatewayConfig, ClusterConfig)} with the webhook's DRA settings ({@link DraSettings}). */
    public static Future<Running> start(GatewayConfig config, ClusterConfig cluster, DraConfig dra) {
        return start(config, cluster, dra, ViewFeeds.DIRECT, new VertxOptions());
    }

    private static Future<Running> start(GatewayConfig config, ClusterConfig cluster, DraConfig dra, ViewFeeds feeds,
                                         VertxOptions vertxOptions) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Vertx vertx = GatewayVertx.create(registry, vertxOptions);
        GatewayMetrics metrics = new GatewayMetrics(registry, config.replica());
        List<GatewayVerticle> deployed = new CopyOnWriteArrayList<>();
        int instances = Math.max(1, Runtime.getRuntime().availableProcessors());
        return GatewayAssembly.start(vertx, config, cluster, feeds, metrics, registry.getPrometheusRegistry())
                .compose(parts -> {
                    List<ApiRoute> routes = new ArrayList<>();
                    routes.add(webhookRoute(config, metrics, parts.quotas(), parts.dra() == null ? null
                            : parts.dra().admission(config.nvidia(), dra).orElse(null)));
                    routes.addAll(parts.routes());
                    MetricsVerticle metricsVerticle = new MetricsVerticle(config.bindAddress(), config.metricsPort(),
                            registry, config.debugState() == DebugState.METRICS ? parts.debugPages() : Map.of());
                    Map<String, Handler<RoutingContext>> schedulerPages = config.debugState() == DebugState.API
                            ? parts.debugPages() : Map.of();
                    return vertx.deployVerticle(metricsVerticle)
                            .compose(id -> vertx.deployVerticle(() -> {
                                GatewayVerticle v = new GatewayVerticle(config, routes, parts.readiness(),
                                        schedulerPages, metrics::clientRefused);
                                deployed.add(v);
                                return v;
                            }, new DeploymentOptions().setInstances(instances)))
                            .map(id -> new Running(vertx, deployed.get(0).actualPort(), metricsVerticle.actualPort(),
                                    parts.state(), parts.closer()))
                            .recover(e -> {
                                parts.closer().run();
                                return Future.failedFuture(e);
                            });
                })
                .recover(e -> {
                    // fail now: a future chained on close() would complete on the event loop close() terminates,
                    // and the caller would only see a start timeout instead of this cause
                    vertx.close();
                    return Future.failedFuture(e);
                });
    }

    private static ApiRoute webhookRoute(GatewayConfig config, GatewayMetrics metrics, QuotaBook quotas,
                                         DraAdmission dra) {
        WebhookService service = new WebhookService(new WebhookDecider(config.webhookConfig()), quotas,
                config.webhookFailurePolicy(), config.webhookMaxBodyBytes(), dra);
        WebhookHandler handler = new WebhookHandler(service, metrics);
        InFlightLimiter limiter = new InFlightLimiter("/webhook", config.maxInFlight());
        metrics.inFlight(limiter);
        return new ApiRoute("/webhook", config.webhookMaxBodyBytes(), limiter, handler, handler);
    }

    /**
     * A started gateway.
     *
     * @param vertx       its Vert.x instance
     * @param apiPort     bound API port
     * @param metricsPort bound metrics port
     * @param state       the shared cluster state this gateway schedules on (read-only use by in-process
     *                    observers such as {@code simulate}); null when Kubernetes is off
     * @param closer      stops the cluster side (informers, Kubernetes client, Hazelcast member)
     */
    public record Running(Vertx vertx, int apiPort, int metricsPort, ClusterState state, Runnable closer) {

        /** Undeploys everything (draining the API listener), closes Vert.x, then leaves the cluster. */
        public Future<Void> close() {
            return vertx.close().andThen(done -> closer.run());
        }

        /** {@link #close()} and waits for it, at most {@code timeout}; failures are logged. */
        public void closeAndWait(Duration timeout) {
            try {
                close().toCompletionStage().toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                LOG.warn("shutdown did not complete cleanly: {}", e.toString());
            }
        }
    }
}
