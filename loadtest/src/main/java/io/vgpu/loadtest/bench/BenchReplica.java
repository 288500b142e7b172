package io.vgpu.loadtest.bench;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vgpu.gateway.GatewayConfig;
import io.vgpu.gateway.core.accounting.AccountingFeed;
import io.vgpu.gateway.core.accounting.PodTracker;
import io.vgpu.gateway.core.filter.FilterConfig;
import io.vgpu.gateway.core.filter.FilterDecider;
import io.vgpu.gateway.core.port.ClusterEvents;
import io.vgpu.gateway.core.port.EventSink;
import io.vgpu.gateway.core.port.NodeHealth;
import io.vgpu.gateway.core.port.PodWriter;
import io.vgpu.gateway.core.port.Readiness;
import io.vgpu.gateway.core.quota.QuotaBook;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.core.request.RequestDeriver;
import io.vgpu.gateway.core.webhook.WebhookDecider;
import io.vgpu.gateway.extender.BindHandler;
import io.vgpu.gateway.extender.ExtenderReplies;
import io.vgpu.gateway.extender.FilterHandler;
import io.vgpu.gateway.http.ApiRoute;
import io.vgpu.gateway.extender.ExtenderRejections;
import io.vgpu.gateway.metrics.GatewayMetrics;
import io.vgpu.gateway.http.GatewayVerticle;
import io.vgpu.gateway.http.GatewayVertx;
import io.vgpu.gateway.http.InFlightLimiter;
import io.vgpu.gateway.scheduling.BindService;
import io.vgpu.gateway.scheduling.FilterService;
import io.vgpu.gateway.scheduling.IngestRepair;
import io.vgpu.gateway.scheduling.NodeLocks;
import io.vgpu.gateway.scheduling.SchedulingConfig;
import io.vgpu.gateway.scheduling.StateIngest;
import io.vgpu.gateway.webhook.WebhookHandler;
import io.vgpu.gateway.webhook.WebhookService;
import com.hazelcast.config.Config;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.store.HazelcastClusterState;
import io.vgpu.state.store.HazelcastMemberConfig;
import io.vgpu.state.store.StoreConfig;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * One gateway replica wired like {@code serve} (the same services, ingest and its repair nets ({@link IngestRepair}),
 * handlers, verticle, in-flight bounds, metrics and an embedded Hazelcast member with the production partition count),
 * except that its Kubernetes ports are the
 * {@link FastApiSink} instead of fabric8: {@code /webhook}, {@code /filter} and {@code /bind} on a free loopback
 * port, plain HTTP, on a Vert.x instance of its own with one verticle instance per core, as {@code serve} deploys.
 * The benchmark runs each replica in a JVM of its own ({@link ReplicaMain}).
 */
final class BenchReplica implements AutoCloseable {

    private static final long SWEEP_EVERY_MILLIS = 2_000;
    /** How long a replica waits for its views to load: the driver's own READY wait ({@code Deployment}). */
    private static final long STATE_READY_MINUTES = Deployment.READY_TIMEOUT.toMinutes();

    private final Vertx vertx;
    private final HazelcastClusterState state;
    private final int port;

    private final HopTimes hops;
    private final StateIngest ingest;

    private BenchReplica(Vertx vertx, HazelcastClusterState state, int port, HopTimes hops, StateIngest ingest) {
        this.vertx = vertx;
        this.state = state;
        this.port = port;
        this.hops = hops;
        this.ingest = ingest;
    }

    /**
     * Starts a replica (blocking: call it from the driver's thread, not an event loop).
     *
     * @param index      replica number, 0 first (names the replica)
     * @param store      its Hazelcast member (the cluster name and member list make replicas find each other)
     * @param sink       the Kubernetes stand-in; the replica subscribes to its events
     * @param nodePolicy the default node policy
     * @param gpuPolicy  the default GPU policy
     * @param reservationTtl how long a filter's reservation lives unless a bind confirms it
     */
    static BenchReplica start(int index, StoreConfig store, ApiStandIn sink, String nodePolicy, String gpuPolicy,
                              Duration reservationTtl) throws Exception {
        return start(index, store, sink, nodePolicy, gpuPolicy, reservationTtl, true);
    }

    /**
     * As above; {@code jitteredNets} false: {@link IngestRepair}'s periodic nets first run one whole period after the
     * start instead of at a random point of it (a test that must know which net did a repair).
     */
    static BenchReplica start(int index, StoreConfig store, ApiStandIn sink, String nodePolicy, String gpuPolicy,
                              Duration reservationTtl, boolean jitteredNets) throws Exception {
        Map<String, String> env = Map.of("VGPU_PLAIN_HTTP", "true", "VGPU_BIND_ADDRESS", "127.0.0.1",
                "VGPU_HTTP_PORT", "0", "VGPU_METRICS_PORT", "0", "VGPU_NODE_SCHEDULER_POLICY", nodePolicy,
                "VGPU_GPU_SCHEDULER_POLICY", gpuPolicy, "VGPU_SHUTDOWN_TIMEOUT", "1s", "POD_NAME", "bench-" + index);
        GatewayConfig config = GatewayConfig.fromEnv(env);
        Config member = HazelcastMemberConfig.build(store);
        // the members are listed and on loopback: no need to wait before joining (as the store's tests do)
        member.setProperty("hazelcast.wait.seconds.before.join", "0");
        member.setProperty("hazelcast.logging.type", "slf4j");
        HazelcastClusterState state = HazelcastClusterState.start(member);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Vertx vertx = GatewayVertx.create(registry);
        try {
            GatewayMetrics metrics = new GatewayMetrics(registry, config.replica());
            NvidiaConfig nvidia = config.nvidia();
            QuotaBook quotas = new QuotaBook(nvidia.resourceMemoryName(), nvidia.resourceCoreName(),
                    nvidia.effectiveMemoryFactor());
            Clock clock = Clock.systemUTC();
            SchedulingConfig d = SchedulingConfig.DEFAULTS;
            SchedulingConfig scheduling = new SchedulingConfig(reservationTtl, d.reserveAttempts(), d.nodeLockTimeout(),
                    d.nodeLockWait(), d.lockRetryEvery(), d.callTimeout());
            // the services call the shared state and the API through the hop probe (HopTimes); ingest does not
            HopTimes hops = new HopTimes(metrics::lockWait);
            // the local reads (a view per listed node and filter) go straight to the state, as in the gateway
            ClusterState timedState = new DirectLocalReads(hops.timed(ClusterState.class, state, "state"), state);
            ApiStandIn api = hops.timed(ApiStandIn.class, sink, "api");
            NodeLocks locks = new NodeLocks(vertx, timedState, api, scheduling, clock, hops);
            // ingest's own calls are timed apart ("ingest.*", "ingest.state.*"): a resync's live reads share the API
            // client with the decisions' writes, and its store calls the partition threads
            ClusterState ingestState = hops.timed(ClusterState.class, state, "ingest.state");
            StateIngest ingest = new StateIngest(ingestState, NodeHealth.ALWAYS, hops.timed(PodWriter.class, sink,
                    "ingest"), locks);
            ClusterEvents listeners = ClusterEvents.fanOut(List.of(new AccountingFeed(new PodTracker(quotas), quotas),
                    ingest));
            // the nets serve starts: without them an event that fell between two owners while the replicas joined
            // stayed unapplied for good (the fanout-p100 and 3-replica heap stalls of 2026-12-02)
            IngestRepair repair = IngestRepair.start(vertx, ingestState, ingest, sink, listeners, jitteredNets);
            sink.subscribe(listeners);
            repair.listed();
            EventSink events = EventSink.NONE;
            FilterDecider decider = new FilterDecider(new FilterConfig(nvidia, config.nodeSchedulerPolicy(),
                    config.gpuSchedulerPolicy()));
            FilterService filter = new FilterService(decider, timedState, quotas, api, events, scheduling, clock);
            BindService bind = new BindService(api, timedState, locks, api, events, new RequestDeriver(nvidia),
                    scheduling, clock);
            List<ApiRoute> routes = new ArrayList<>();
            WebhookHandler webhook = new WebhookHandler(new WebhookService(new WebhookDecider(config.webhookConfig()),
                    quotas, config.webhookFailurePolicy(), config.webhookMaxBodyBytes()), metrics);
            routes.add(new ApiRoute("/webhook", config.webhookMaxBodyBytes(), limiter("/webhook", config, metrics),
                    webhook, webhook));
            routes.add(new ApiRoute("/filter", ExtenderReplies.MAX_BODY_BYTES, limiter("/filter", config, metrics),
                    new FilterHandler(filter, decider, metrics), ExtenderRejections.filter(ExtenderReplies.MAX_BODY_BYTES, metrics)));
            routes.add(new ApiRoute("/bind", ExtenderReplies.MAX_BODY_BYTES, limiter("/bind", config, metrics),
                    new BindHandler(bind, metrics), ExtenderRejections.bind(ExtenderReplies.MAX_BODY_BYTES, metrics)));
            List<GatewayVerticle> deployed = new CopyOnWriteArrayList<>();
            vertx.deployVerticle(() -> {
                GatewayVerticle v = new GatewayVerticle(config.listener(), routes, Readiness.ALWAYS);
                deployed.add(v);
                return v;
            }, new DeploymentOptions().setInstances(Runtime.getRuntime().availableProcessors()))
                    // 30 s by default (5 s per minute of the READY wait): it ran out beside a soak, at 55 minutes
                    .toCompletionStage().toCompletableFuture().get(STATE_READY_MINUTES * 5, TimeUnit.SECONDS);
            vertx.setPeriodic(SWEEP_EVERY_MILLIS, id -> state.sweepExpired(clock.millis()));
            // as long as the driver waits for READY (Deployment): a member that joins while its peers ingest 50,000
            // placed pods and partitions migrate took more than 30 s to load its views on a loaded 2-core machine
            state.ready().toCompletableFuture().get(STATE_READY_MINUTES, TimeUnit.MINUTES);
            metrics.ingestBacklog(ingest::backlog);
            return new BenchReplica(vertx, state, deployed.get(0).actualPort(), hops, ingest);
        } catch (Exception | Error e) {
            vertx.close();
            state.shutdown();
            throw e;
        }
    }

    private static InFlightLimiter limiter(String path, GatewayConfig config, GatewayMetrics metrics) {
        InFlightLimiter limiter = new InFlightLimiter(path, config.maxInFlight());
        metrics.inFlight(path, limiter::inFlight);
        return limiter;
    }

    /** The replica's API port on 127.0.0.1. */
    int port() {
        return port;
    }

    /**
     * Ingest not applied yet: its store calls in flight (as the hop probe counts them) and its backlog, the changes
     * and resync reads queued ({@link StateIngest#backlog}). A resync after the replicas joined queued 73,500 live
     * reads on one replica of the heap row, 35 MiB of futures the row used to count as state.
     */
    long ingestPending() {
        return hops.inFlight("ingest.state") + ingest.backlog();
    }

    /** Where its decisions spent their time, per hop. */
    HopTimes hops() {
        return hops;
    }

    /** Its shared-state member. */
    HazelcastClusterState state() {
        return state;
    }

    /** Waits until this replica's local view holds {@code nodes} registered nodes. */
    void awaitNodes(int nodes, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (state.nodes().size() < nodes) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("only " + state.nodes().size() + " of " + nodes
                        + " nodes registered after " + timeout.toSeconds() + " s");
            }
            Thread.sleep(20);
        }
    }

    @Override
    public void close() {
        try {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            // closing anyway
        }
        try {
            state.shutdown().toCompletableFuture().get(20, TimeUnit.SECONDS);
        } catch (Exception e) {
            // the member is gone or going
        }
    }
}
