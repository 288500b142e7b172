package io.vgpu.gateway;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.ext.web.RoutingContext;
import io.vgpu.gateway.core.accounting.AccountingFeed;
import io.vgpu.gateway.core.accounting.PodTracker;
import io.vgpu.gateway.core.filter.FilterConfig;
import io.vgpu.gateway.core.filter.FilterDecider;
import io.vgpu.gateway.core.port.ClusterEvents;
import io.vgpu.gateway.core.port.NodeHealth;
import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.gateway.core.port.Readiness;
import io.vgpu.gateway.core.quota.QuotaBook;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.core.request.RequestDeriver;
import io.vgpu.gateway.core.webhook.WebhookDecider;
import io.vgpu.gateway.debug.DebugStateHandler;
import io.vgpu.gateway.core.dra.DraConfig;
import io.vgpu.gateway.draview.DraView;
import io.vgpu.gateway.draview.SharedQuotaTickets;
import io.vgpu.gateway.draview.TicketMetrics;
import io.vgpu.gateway.extender.BindHandler;
import io.vgpu.gateway.extender.ExtenderBindingResult;
import io.vgpu.gateway.extender.ExtenderFilterResult;
import io.vgpu.gateway.extender.ExtenderReplies;
import io.vgpu.gateway.extender.FilterHandler;
import io.vgpu.gateway.http.GatewayVerticle;
import io.vgpu.gateway.http.GatewayVertx;
import io.vgpu.gateway.http.MetricsVerticle;
import io.vgpu.gateway.kube.HandshakeReconciler;
import io.vgpu.gateway.metrics.GatewayMetrics;
import io.vgpu.gateway.metrics.HamiSchedulerCollector;
import io.vgpu.gateway.kube.InformerConfig;
import io.vgpu.gateway.kube.KubeApi;
import io.vgpu.gateway.kube.KubeClientConfig;
import io.vgpu.gateway.kube.KubeClientFactory;
import io.vgpu.gateway.kube.KubeEventRecorder;
import io.vgpu.gateway.kube.KubeInformers;
import io.vgpu.gateway.kube.KubeNodeLock;
import io.vgpu.gateway.kube.KubePodWriter;
import io.vgpu.gateway.scheduling.BindService;
import io.vgpu.gateway.scheduling.FilterService;
import io.vgpu.gateway.scheduling.IngestRepair;
import io.vgpu.gateway.scheduling.LockWaits;
import io.vgpu.gateway.scheduling.NodeLocks;
import io.vgpu.gateway.scheduling.QuotaIngest;
import io.vgpu.gateway.scheduling.SchedulingConfig;
import io.vgpu.gateway.scheduling.StateIngest;
import io.vgpu.gateway.webhook.DraAdmission;
import io.vgpu.gateway.webhook.WebhookHandler;
import io.vgpu.gateway.webhook.WebhookService;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.store.HazelcastClusterState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The gateway's composition root (STYLE.md section 3): from a parsed {@link GatewayConfig} it builds the metrics
 * registry and Vert.x, the Hazelcast member, the Kubernetes client, the informers feeding the store and the quota
 * book, the services and their handlers, the route table ({@link Routes}), and deploys the API and metrics
 * listeners. {@code serve} ({@link ServeCommand}) and {@code simulate} start the gateway only through
 * {@link #start}. Blocking start-up steps run on a worker thread; {@code /readyz} turns ready once the informers
 * have synced and the shared state is loaded.
 */
public final class GatewayAssembly {

    private static final Logger LOG = LoggerFactory.getLogger(GatewayAssembly.class);
    private static final long SWEEP_EVERY_MILLIS = 2_000;

    private GatewayAssembly() {
    }

    /**
     * What the cluster side contributes to the running gateway.
     *
     * @param filter     {@code POST /filter}
     * @param bind       {@code POST /bind}
     * @param readiness  what {@code /readyz} checks
     * @param quotas     the quota book the webhook gate reads (fed by the ResourceQuota informer)
     * @param state      the shared cluster state, or null when Kubernetes is off
     * @param closer     stops informers, the client and the Hazelcast member (gracefully)
     * @param debugState {@code /debug/state}, served where {@code VGPU_DEBUG_STATE} says; null when Kubernetes is off
     * @param draAdmission the webhook's DRA path (translation, quota tickets, templates); null when Kubernetes is off
     */
    private record Parts(Handler<RoutingContext> filter, Handler<RoutingContext> bind, Readiness readiness,
                         QuotaBook quotas, ClusterState state, Runnable closer, Handler<RoutingContext> debugState,
                         DraAdmission draAdmission) {
    }

    /**
     * Builds the services and deploys the listeners: the one start path, shared by {@code serve} and by
     * {@code simulate} (which runs the same gateway against its in-process API server).
     *
     * @return the running gateway once both listeners are bound; a failed start leaves nothing running
     */
    public static Future<RunningGateway> start(GatewayConfig config, ClusterConfig cluster) {
        return start(config, cluster, DraConfig.DEFAULTS, ViewFeeds.DIRECT, new VertxOptions());
    }

    /** {@link #start(GatewayConfig, ClusterConfig)} with the webhook's DRA settings ({@link DraSettings}). */
    public static Future<RunningGateway> start(GatewayConfig config, ClusterConfig cluster, DraConfig dra) {
        return start(config, cluster, dra, ViewFeeds.DIRECT, new VertxOptions());
    }

    /**
     * {@link #start(GatewayConfig, ClusterConfig)} with the change events fed through {@code feeds} (the chaos
     * harness) on a Vert.x built from {@code vertxOptions} (tests tighten the blocked-thread checker with it).
     */
    static Future<RunningGateway> start(GatewayConfig config, ClusterConfig cluster, DraConfig dra, ViewFeeds feeds,
                                        VertxOptions vertxOptions) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Vertx vertx = GatewayVertx.create(registry, vertxOptions);
        GatewayMetrics metrics = new GatewayMetrics(registry, config.replica());
        return cluster(vertx, config, cluster, dra, feeds, metrics, registry.getPrometheusRegistry())
                .compose(parts -> {
                    Routes.Table routes = Routes.of(config, metrics, registry, new Routes.Handlers(
                            webhook(config, metrics, parts.quotas(), parts.draAdmission()), parts.filter(), parts.bind(), parts.readiness(),
                            parts.debugState()));
                    return listen(vertx, config, metrics, routes)
                            .map(ports -> new RunningGateway(vertx, ports[0], ports[1], parts.state(), parts.closer()))
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

    /** Deploys the metrics listener, then one API listener per core; the bound ports, API first. */
    private static Future<int[]> listen(Vertx vertx, GatewayConfig config, GatewayMetrics metrics,
                                        Routes.Table routes) {
        MetricsVerticle metricsVerticle = new MetricsVerticle(config.bindAddress(), config.metricsPort(),
                routes.metricsPages());
        List<GatewayVerticle> deployed = new CopyOnWriteArrayList<>();
        int instances = Math.max(1, Runtime.getRuntime().availableProcessors());
        return vertx.deployVerticle(metricsVerticle)
                .compose(id -> vertx.deployVerticle(() -> {
                    GatewayVerticle v = new GatewayVerticle(config.listener(), routes.api(), routes.pages(),
                            routes.schedulerPages(), metrics::clientRefused);
                    deployed.add(v);
                    return v;
                }, new DeploymentOptions().setInstances(instances)))
                .map(id -> new int[] {deployed.get(0).actualPort(), metricsVerticle.actualPort()});
    }

    private static WebhookHandler webhook(GatewayConfig config, GatewayMetrics metrics, QuotaBook quotas,
                                          DraAdmission draAdmission) {
        WebhookService service = new WebhookService(new WebhookDecider(config.webhookConfig()), quotas,
                config.webhookFailurePolicy(), config.webhookMaxBodyBytes(), draAdmission);
        return new WebhookHandler(service, metrics);
    }

    /** Builds and starts the cluster side, or the webhook-only stand-ins when Kubernetes is off. */
    private static Future<Parts> cluster(Vertx vertx, GatewayConfig config, ClusterConfig cluster, DraConfig dra,
                                         ViewFeeds feeds, GatewayMetrics metrics, PrometheusRegistry prometheus) {
        NvidiaConfig nvidia = config.nvidia();
        QuotaBook quotas = new QuotaBook(nvidia.resourceMemoryName(), nvidia.resourceCoreName(),
                nvidia.effectiveMemoryFactor());
        if (!cluster.kubernetes()) {
            LOG.warn("VGPU_KUBERNETES=false: /filter and /bind answer an error; the webhook works without quotas");
            String why = "Kubernetes is disabled on this gateway (VGPU_KUBERNETES=false)";
            return Future.succeededFuture(new Parts(
                    ctx -> ExtenderReplies.write(ctx, ExtenderFilterResult.error(why)),
                    ctx -> ExtenderReplies.write(ctx, ExtenderBindingResult.failed(why)),
                    Readiness.ALWAYS, quotas, null, () -> { }, null, null));
        }
        return vertx.executeBlocking(() -> HazelcastClusterState.start(cluster.store(), feeds.sharedState()))
                // wiring builds the Kubernetes client: it reads the kubeconfig (and may run its exec plugin)
                .compose(state -> vertx.executeBlocking(() -> wire(vertx, config, cluster, dra, feeds, metrics,
                        prometheus, quotas, state)));
    }

    private static Parts wire(Vertx vertx, GatewayConfig config, ClusterConfig cluster, DraConfig draConfig,
                              ViewFeeds feeds, GatewayMetrics metrics, PrometheusRegistry prometheus, QuotaBook quotas,
                              HazelcastClusterState state) {
        Clock clock = Clock.systemUTC();
        KubeClientConfig kubeConfig = new KubeClientConfig(
                cluster.kubeconfig() == null ? null : cluster.kubeconfig().toString(), null, config.kubeQps(),
                config.kubeBurst(), KubeClientConfig.DEFAULTS.requestTimeout(), KubeClientConfig.DEFAULTS.maxInFlight(),
                KubeClientConfig.DEFAULTS.maxRateWait(), KubeClientConfig.DEFAULTS.retries());
        KubernetesClient client = KubeClientFactory.create(kubeConfig, vertx);
        KubeApi api = new KubeApi(client, kubeConfig, metrics);
        String schedulerName = config.schedulerNames().get(0);
        KubeEventRecorder events = new KubeEventRecorder(api, schedulerName, 64, clock);
        HandshakeReconciler handshake = new HandshakeReconciler(api, clock, ZoneId.systemDefault());

        KubePodWriter podWriter = new KubePodWriter(api);
        SchedulingConfig scheduling = new SchedulingConfig(cluster.reservationTtl(),
                SchedulingConfig.DEFAULTS.reserveAttempts(), config.nodeLockTimeout(), config.nodeLockWait(),
                SchedulingConfig.DEFAULTS.lockRetryEvery(), SchedulingConfig.DEFAULTS.callTimeout());
        NodeLocks locks = new NodeLocks(vertx, state, new KubeNodeLock(api, clock, ZoneId.systemDefault()), scheduling,
                clock, lockWaits(metrics));
        StateIngest ingest = new StateIngest(state, health(handshake), podWriter, locks);
        metrics.ingestBacklog(ingest::backlog);
        ClusterEvents listeners = ClusterEvents.fanOut(List.of(
                new AccountingFeed(new PodTracker(quotas), quotas),
                ingest,
                new QuotaIngest(state, config.nvidia().resourceMemoryName(), config.nvidia().resourceCoreName(),
                        config.nvidia().effectiveMemoryFactor())));
        KubeInformers informers = new KubeInformers(client, new InformerConfig(config.schedulerNames(),
                config.nodeLabelSelector(), config.nvidia().resourceCountName(), true), listeners, feeds.informers());
        // keys this replica now owns (migration, promotion, lost partition), and periodically every owned key and
        // node: re-ingested from the caches (the nets every ingesting process starts: IngestRepair)
        IngestRepair repair = IngestRepair.start(vertx, state, ingest, informers, listeners);

        FilterDecider decider = new FilterDecider(new FilterConfig(config.nvidia(), config.nodeSchedulerPolicy(),
                config.gpuSchedulerPolicy()));
        FilterService filter = new FilterService(decider, state, quotas, podWriter, events, scheduling, clock);
        BindService bind = new BindService(informers, state, locks, podWriter, events,
                new RequestDeriver(config.nvidia()), scheduling, clock);

        // issue 13 items 2 and 3: quota tickets of pods translated to DRA claims, and the DRA-mode nodes' cards
        DraView draView = new DraView(client, state, new SharedQuotaTickets(state, config.nvidia().resourceMemoryName(),
                config.nvidia().resourceCoreName(), cluster.quotaTicketTtl(), scheduling.callTimeout(), clock,
                new TicketMetrics(metrics.registry(), config.replica())));
        HamiSchedulerCollector hami = new HamiSchedulerCollector(state, quotas, informers::pods, draView::snapshot);
        prometheus.register(hami);
        AtomicBoolean storeReady = new AtomicBoolean();
        state.ready().thenRun(() -> storeReady.set(true));
        // ingest only once the shared state can be written (a quorum is there): what the first list delivers is the
        // state a fresh cluster rebuilds from, and a write refused for want of a quorum would be lost
        state.ready().thenCompose(v -> informers.start()).whenComplete((v, e) -> {
            if (e != null) {
                LOG.error("informers did not start: {}", e.toString());
            } else {
                LOG.info("informers synced");
                // keys this member got while it joined, before the caches held anything to resync from
                repair.listed();
            }
        });
        state.ready().thenCompose(v -> draView.start()).whenComplete((v, e) -> {
            if (e != null) {
                LOG.error("DRA informers did not start: {}", e.toString());
            }
        });
        long sweeper = vertx.setPeriodic(SWEEP_EVERY_MILLIS, id -> {
            state.sweepExpired(clock.millis());
            draView.sweep();
            if (informers.hasSynced()) {
                locks.sweep(state::ownsNode);
            }
        });

        // the webhook's DRA path: card sizes of both modes (registered nodes, published slices) and the quota tickets
        DraWiring dra = DraWiring.start(vertx, client, api, informers::nodes, draView::cardMemorySizes,
                draView.tickets(), clock);
        // "ingest": the first list is charged and registered (a replica that answered before held no charge of the
        // pods that outlived a restart of every replica)
        Readiness readiness = Readiness.of(Map.of("informers", informers::hasSynced, "cluster-state", storeReady::get,
                "ingest", repair::ingested, "namespaces", dra::ready));
        DebugStateHandler debugState = new DebugStateHandler(vertx, state, config.replica(), readiness::isReady,
                clock, draView::snapshot);
        Runnable closer = () -> {
            prometheus.unregister(hami);
            vertx.cancelTimer(sweeper);
            repair.close();
            dra.close();
            debugState.close();
            informers.close();
            draView.close();
            api.close();
            client.close();
            try {
                state.shutdown().toCompletableFuture().get(20, TimeUnit.SECONDS);
            } catch (Exception e) {
                LOG.warn("Hazelcast member did not leave cleanly: {}", e.toString());
            }
        };
        return new Parts(new FilterHandler(filter, decider, metrics), new BindHandler(bind, metrics), readiness, quotas,
                state, closer, debugState, dra.admission(config.nvidia(), draConfig));
    }

    /** The binds' lock waits and contended tries, into the gateway's metrics. */
    private static LockWaits lockWaits(GatewayMetrics metrics) {
        return new LockWaits() {
            @Override
            public void record(String outcome, long nanos) {
                metrics.lockWait(outcome, nanos);
            }

            @Override
            public void contended() {
                metrics.lockContended();
            }
        };
    }

    /** Node health from the handshake adapter; a failed reconcile keeps the node (HAMi: healthy on error). */
    private static NodeHealth health(HandshakeReconciler handshake) {
        return new NodeHealth() {
            @Override
            public CompletionStage<Boolean> healthy(NodeObservation node) {
                return handshake.reconcile(node).handle((verdict, e) -> e != null || verdict.healthy());
            }

            @Override
            public void forget(String node) {
                handshake.forget(node);
            }
        };
    }
}
