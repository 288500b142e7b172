package io.vgpu.gateway;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
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
import io.vgpu.gateway.debug.DebugStateHandler;
import io.vgpu.gateway.extender.BindHandler;
import io.vgpu.gateway.extender.ExtenderBindingResult;
import io.vgpu.gateway.extender.ExtenderFilterResult;
import io.vgpu.gateway.extender.ExtenderReplies;
import io.vgpu.gateway.extender.FilterHandler;
import io.vgpu.gateway.http.ApiRoute;
import io.vgpu.gateway.http.ExtenderRejections;
import io.vgpu.gateway.http.GatewayMetrics;
import io.vgpu.gateway.http.InFlightLimiter;
import io.vgpu.gateway.kube.HandshakeReconciler;
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
import io.vgpu.gateway.scheduling.NodeLocks;
import io.vgpu.gateway.scheduling.QuotaIngest;
import io.vgpu.gateway.scheduling.SchedulingConfig;
import io.vgpu.gateway.scheduling.StateIngest;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.store.HazelcastClusterState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Builds the cluster-facing half of the gateway for {@link ServeCommand} (the composition root): the
 * Hazelcast member, the Kubernetes client, informers feeding the store and the quota book, and the
 * {@code /filter} and {@code /bind} routes. Blocking start-up steps run on a worker thread.
 */
final class GatewayAssembly {

    private static final Logger LOG = LoggerFactory.getLogger(GatewayAssembly.class);
    private static final long SWEEP_EVERY_MILLIS = 2_000;
    private static final long HANDSHAKE_EVERY_MILLIS = 15_000;
    private static final long REPAIR_EVERY_MILLIS = 30_000;

    private GatewayAssembly() {
    }

    /**
     * What the cluster side contributes to the running gateway.
     *
     * @param routes    the extender routes
     * @param readiness what {@code /readyz} checks
     * @param quotas    the quota book the webhook gate reads (fed by the ResourceQuota informer)
     * @param state     the shared cluster state, or null when Kubernetes is off
     * @param closer    stops informers, the client and the Hazelcast member (gracefully)
     * @param debugPages read-only pages ({@code /debug/state}), served where {@code VGPU_DEBUG_STATE} says
     * @param dra       the cluster side of the webhook's DRA path, null when Kubernetes is off
     */
    record Parts(List<ApiRoute> routes, Readiness readiness, QuotaBook quotas, ClusterState state, Runnable closer,
                 Map<String, Handler<RoutingContext>> debugPages, DraWiring dra) {
    }

    /** Builds and starts the cluster side, or the webhook-only stand-ins when Kubernetes is off. */
    static Future<Parts> start(Vertx vertx, GatewayConfig config, ClusterConfig cluster, ViewFeeds feeds,
                               GatewayMetrics metrics, PrometheusRegistry prometheus) {
        NvidiaConfig nvidia = config.nvidia();
        QuotaBook quotas = new QuotaBook(nvidia.resourceMemoryName(), nvidia.resourceCoreName(),
                nvidia.effectiveMemoryFactor());
        if (!cluster.kubernetes()) {
            LOG.warn("VGPU_KUBERNETES=false: /filter and /bind answer an error; the webhook works without quotas");
            return Future.succeededFuture(new Parts(disabledRoutes(config, metrics), Readiness.ALWAYS, quotas, null,
                    () -> { }, Map.of(), null));
        }
        return vertx.executeBlocking(() -> HazelcastClusterState.start(cluster.store(), feeds.sharedState()))
                // wiring builds the Kubernetes client: it reads the kubeconfig (and may run its exec plugin)
                .compose(state -> vertx.executeBlocking(() -> wire(vertx, config, cluster, feeds, metrics, prometheus,
                        quotas, state)));
    }

    private static Parts wire(Vertx vertx, GatewayConfig config, ClusterConfig cluster, ViewFeeds feeds,
                              GatewayMetrics metrics, PrometheusRegistry prometheus, QuotaBook quotas,
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
                clock, metrics::lockWait);
        StateIngest ingest = new StateIngest(state, health(handshake), podWriter, locks);
        ClusterEvents listeners = ClusterEvents.fanOut(List.of(
                new AccountingFeed(new PodTracker(quotas), quotas),
                ingest,
                new QuotaIngest(state, config.nvidia().resourceMemoryName(), config.nvidia().resourceCoreName(),
                        config.nvidia().effectiveMemoryFactor())));
        KubeInformers informers = new KubeInformers(client, new InformerConfig(config.schedulerNames(),
                config.nodeLabelSelector(), config.nvidia().resourceCountName(), true), listeners, feeds.informers());
        // keys this replica now owns (migration, promotion, lost partition): re-ingest them from the caches
        state.onResync(keys -> ingest.resync(keys, informers).whenComplete((v, e) -> {
            if (e != null) {
                LOG.warn("resync failed: {}", e.toString());
            }
        }));

        FilterDecider decider = new FilterDecider(new FilterConfig(config.nvidia(), config.nodeSchedulerPolicy(),
                config.gpuSchedulerPolicy()));
        FilterService filter = new FilterService(decider, state, quotas, podWriter, events, scheduling, clock);
        BindService bind = new BindService(informers, state, locks, podWriter, events,
                new RequestDeriver(config.nvidia()), scheduling, clock);

        HamiSchedulerCollector hami = new HamiSchedulerCollector(state, quotas, informers::pods);
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
                // keys this member got while it joined, before its resync listener was registered
                ingest.resync(state::ownsNode, informers);
            }
        });
        long sweeper = vertx.setPeriodic(SWEEP_EVERY_MILLIS, id -> {
            state.sweepExpired(clock.millis());
            if (informers.hasSynced()) {
                locks.sweep(state::ownsNode);
            }
        });
        long handshakes = vertx.setPeriodic(HANDSHAKE_EVERY_MILLIS,
                id -> informers.nodes().forEach(n -> listeners.nodeUpserted(n)));
        // a safety net for changes lost in flight (owner changes are resynced at once already): a full resync of the
        // owned keys costs nothing when the state matches the caches
        long vanished = vertx.setPeriodic(REPAIR_EVERY_MILLIS,
                id -> ingest.resync(state::ownsNode, informers));

        // the quota tickets of DRA pods (issue 13 item 2) are wired here at merge; without them the DRA path is off
        DraWiring dra = DraWiring.start(vertx, client, api, informers::nodes, null, clock);
        Readiness readiness = Readiness.of(Map.of("informers", informers::hasSynced, "cluster-state", storeReady::get,
                "namespaces", dra::ready));
        DebugStateHandler debugState = new DebugStateHandler(vertx, state, config.replica(), readiness::isReady,
                clock);
        Runnable closer = () -> {
            prometheus.unregister(hami);
            vertx.cancelTimer(sweeper);
            vertx.cancelTimer(handshakes);
            vertx.cancelTimer(vanished);
            dra.close();
            informers.close();
            api.close();
            client.close();
            try {
                state.shutdown().toCompletableFuture().get(20, TimeUnit.SECONDS);
            } catch (Exception e) {
                LOG.warn("Hazelcast member did not leave cleanly: {}", e.toString());
            }
        };
        List<ApiRoute> routes = new ArrayList<>();
        routes.add(route("/filter", config, metrics, new FilterHandler(filter, decider, metrics), ExtenderRejections.filter(
                ExtenderReplies.MAX_BODY_BYTES, metrics)));
        routes.add(route("/bind", config, metrics, new BindHandler(bind, metrics), ExtenderRejections.bind(
                ExtenderReplies.MAX_BODY_BYTES, metrics)));
        return new Parts(routes, readiness, quotas, state, closer,
                Map.of("/debug/state", debugState), dra);
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

    private static ApiRoute route(String path, GatewayConfig config, GatewayMetrics metrics,
                                  Handler<RoutingContext> handler,
                                  ExtenderRejections rejections) {
        InFlightLimiter limiter = new InFlightLimiter(path, config.maxInFlight());
        metrics.inFlight(limiter);
        // only kube-scheduler may filter and bind: any other caller could bind pending GPU pods anywhere
        return new ApiRoute(path, ExtenderReplies.MAX_BODY_BYTES, limiter, handler, rejections, true);
    }

    private static List<ApiRoute> disabledRoutes(GatewayConfig config, GatewayMetrics metrics) {
        String why = "Kubernetes is disabled on this gateway (VGPU_KUBERNETES=false)";
        return List.of(
                new ApiRoute("/filter", ExtenderReplies.MAX_BODY_BYTES,
                        new InFlightLimiter("/filter", config.maxInFlight()),
                        ctx -> ExtenderReplies.write(ctx, ExtenderFilterResult.error(why)),
                        ExtenderRejections.filter(ExtenderReplies.MAX_BODY_BYTES, metrics)),
                new ApiRoute("/bind", ExtenderReplies.MAX_BODY_BYTES,
                        new InFlightLimiter("/bind", config.maxInFlight()),
                        ctx -> ExtenderReplies.write(ctx, ExtenderBindingResult.failed(why)),
                        ExtenderRejections.bind(ExtenderReplies.MAX_BODY_BYTES, metrics)));
    }
}
