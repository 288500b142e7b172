package io.vgpu.gateway.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vgpu.gateway.extender.ExtenderMetrics;
import io.vgpu.gateway.kube.KubeApiMetrics;
import io.vgpu.gateway.webhook.WebhookMetrics;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * The gateway's own request metrics, each tagged with {@code replica} (so that dashboards can tell
 * replicas apart even where the scrape adds no pod label). Prometheus names:
 * <ul>
 *   <li>{@code vgpu_webhook_duration_seconds{outcome,replica}}: histogram of webhook handling time;</li>
 *   <li>{@code vgpu_filter_duration_seconds{outcome,replica}} and {@code vgpu_bind_duration_seconds{outcome,replica}}:
 *       histograms of the extender verbs;</li>
 *   <li>{@code vgpu_filter_reserve_conflicts_total{replica}}: reservations refused by the shared state;</li>
 *   <li>{@code vgpu_filter_failures_total{reason,replica}} and {@code vgpu_bind_failures_total{reason,replica}}:
 *       decisions that placed or bound nothing, by reason ({@code io.vgpu.gateway.scheduling.DecisionFailure});</li>
 *   <li>{@code vgpu_filter_rejected_nodes_total{reason,replica}}: in filters that placed nothing, the nodes
 *       rejected per HAMi reason word (why pods are pending, cluster-wide);</li>
 *   <li>{@code vgpu_bind_lock_wait_seconds{outcome,replica}}: histogram of binds' waits for a node lock;</li>
 *   <li>{@code vgpu_bind_lock_contended_total{replica}}: tries of a bind that found its node's lock held by another
 *       pod (the bind waited and tried again): contention between binds, where the wait histogram shows only its
 *       length;</li>
 *   <li>{@code vgpu_kube_api_request_duration_seconds{verb,resource,code,replica}}: histogram of Kubernetes API
 *       calls (reads and writes; {@code code} is the HTTP status or why no answer came), and
 *       {@code vgpu_kube_api_errors_total{verb,resource,code,replica}}: those that did not answer 2xx;</li>
 *   <li>{@code vgpu_http_overloaded_total{endpoint,replica}}: requests answered "overloaded";</li>
 *   <li>{@code vgpu_http_in_flight{endpoint,replica}}: requests being handled now;</li>
 *   <li>{@code vgpu_http_client_refused_total{endpoint,reason,replica}}: requests refused because the client did
 *       not present kube-scheduler's certificate.</li>
 * </ul>
 * HAMi's own metric names (spec §13) are registered elsewhere, without the replica tag. Thread-safe.
 */
public final class GatewayMetrics implements ExtenderMetrics, WebhookMetrics, KubeApiMetrics {

    /** Latency buckets (seconds): admission and extender calls should take milliseconds. */
    private static final Duration[] BUCKETS = {
        Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5), Duration.ofMillis(10),
        Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
        Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5),
        Duration.ofSeconds(10)};

    /** Lock waits range from nothing to the configured bound (seconds, below kube-scheduler's bind timeout). */
    private static final Duration[] LOCK_WAIT_BUCKETS = {
        Duration.ofMillis(1), Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofMillis(100),
        Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500),
        Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(20), Duration.ofSeconds(30)};

    private final MeterRegistry registry;
    private final String replica;
    private final Map<String, Timer> webhookTimers = new ConcurrentHashMap<>();
    private final Map<String, Timer> filterTimers = new ConcurrentHashMap<>();
    private final Map<String, Timer> bindTimers = new ConcurrentHashMap<>();
    private final Map<String, Counter> overloaded = new ConcurrentHashMap<>();
    private final Counter conflicts;
    private final Counter lockContended;
    private final Map<String, Counter> filterFailures = new ConcurrentHashMap<>();
    private final Map<String, Counter> bindFailures = new ConcurrentHashMap<>();
    private final Map<String, Counter> rejectedNodes = new ConcurrentHashMap<>();
    private final Map<String, Timer> lockWaits = new ConcurrentHashMap<>();
    private final Map<List<String>, Timer> apiCalls = new ConcurrentHashMap<>();
    private final Map<List<String>, Counter> apiErrors = new ConcurrentHashMap<>();
    private final Map<List<String>, Counter> clientRefusals = new ConcurrentHashMap<>();

    /**
     * @param registry where the meters live (the registry the metrics endpoint scrapes)
     * @param replica  this replica's name
     */
    public GatewayMetrics(MeterRegistry registry, String replica) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.replica = Objects.requireNonNull(replica, "replica");
        this.lockContended = Counter.builder("vgpu.bind.lock.contended")
                .description("Tries of a bind that found its node's lock held by another pod; the bind waited and "
                        + "tried again")
                .tags("replica", replica)
                .register(registry);
        this.conflicts = Counter.builder("vgpu.filter.reserve.conflicts")
                .description("Reservations the shared state refused (capacity taken meanwhile); the next-best node "
                        + "was tried")
                .tags("replica", replica)
                .register(registry);
    }

    /** The registry. */
    public MeterRegistry registry() {
        return registry;
    }

    /** Records one webhook request that took {@code nanos} and ended with {@code outcome}. */
    @Override
    public void webhook(String outcome, long nanos) {
        time(webhookTimers, "vgpu.webhook.duration", "Time to answer one AdmissionReview", outcome, nanos);
    }

    @Override
    public void filter(String outcome, long nanos) {
        time(filterTimers, "vgpu.filter.duration", "Time to answer one extender filter call", outcome, nanos);
    }

    @Override
    public void bind(String outcome, long nanos) {
        time(bindTimers, "vgpu.bind.duration", "Time to answer one extender bind call (lock waits included)",
                outcome, nanos);
    }

    private void time(Map<String, Timer> timers, String name, String description, String outcome, long nanos) {
        timers.computeIfAbsent(outcome, o -> Timer.builder(name)
                        .description(description)
                        .tags("outcome", o, "replica", replica)
                        .serviceLevelObjectives(BUCKETS)
                        .register(registry))
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void reserveConflict() {
        conflicts.increment();
    }

    @Override
    public void filterFailed(String reason) {
        count(filterFailures, "vgpu.filter.failures", "Filter calls that placed nothing, by reason", reason);
    }

    @Override
    public void nodesRejected(String reason, int nodes) {
        rejectedNodes.computeIfAbsent(reason, r -> Counter.builder("vgpu.filter.rejected.nodes")
                        .description("Nodes rejected in filter calls that placed nothing, by HAMi reason")
                        .tags("reason", r, "replica", replica)
                        .register(registry))
                .increment(nodes);
    }

    @Override
    public void bindFailed(String reason) {
        count(bindFailures, "vgpu.bind.failures", "Bind calls that failed, by reason", reason);
    }

    private void count(Map<String, Counter> counters, String name, String description, String reason) {
        counters.computeIfAbsent(reason, r -> Counter.builder(name)
                        .description(description)
                        .tags("reason", r, "replica", replica)
                        .register(registry))
                .increment();
    }

    @Override
    public void lockContended() {
        lockContended.increment();
    }

    @Override
    public void lockWait(String outcome, long nanos) {
        lockWaits.computeIfAbsent(outcome, o -> Timer.builder("vgpu.bind.lock.wait")
                        .description("Time a bind waited for its node's lock (shared state, then hami.io/mutex.lock)")
                        .tags("outcome", o, "replica", replica)
                        .serviceLevelObjectives(LOCK_WAIT_BUCKETS)
                        .register(registry))
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void call(String verb, String resource, String code, long nanos) {
        List<String> key = List.of(verb, resource, code);
        apiCalls.computeIfAbsent(key, k -> Timer.builder("vgpu.kube.api.request.duration")
                        .description("Kubernetes API calls by verb, resource and HTTP status (or why no answer came)")
                        .tags("verb", verb, "resource", resource, "code", code, "replica", replica)
                        .serviceLevelObjectives(BUCKETS)
                        .register(registry))
                .record(nanos, TimeUnit.NANOSECONDS);
        if (!code.startsWith("2")) {
            apiErrors.computeIfAbsent(key, k -> Counter.builder("vgpu.kube.api.errors")
                            .description("Kubernetes API calls that did not answer 2xx")
                            .tags("verb", verb, "resource", resource, "code", code, "replica", replica)
                            .register(registry))
                    .increment();
        }
    }

    /** Counts one request to {@code endpoint} answered "overloaded". */
    @Override
    public void overloaded(String endpoint) {
        overloaded.computeIfAbsent(endpoint, e -> Counter.builder("vgpu.http.overloaded")
                        .description("Requests answered overloaded because the in-flight bound was reached")
                        .tags("endpoint", e, "replica", replica)
                        .register(registry))
                .increment();
    }

    /**
     * Counts one request to {@code endpoint} refused for its client certificate; {@code reason} is
     * {@code no_certificate} or {@code name_not_allowed}.
     */
    public void clientRefused(String endpoint, String reason) {
        clientRefusals.computeIfAbsent(List.of(endpoint, reason), k -> Counter.builder("vgpu.http.client.refused")
                        .description("Requests refused because the client did not present kube-scheduler's"
                                + " certificate")
                        .tags("endpoint", endpoint, "reason", reason, "replica", replica)
                        .register(registry))
                .increment();
    }

    /** Publishes {@code endpoint}'s in-flight count, as {@code current} reads it (its in-flight limiter). */
    public void inFlight(String endpoint, IntSupplier current) {
        Gauge.builder("vgpu.http.in.flight", current, IntSupplier::getAsInt)
                .description("Requests being handled now")
                .strongReference(true)
                .tags("endpoint", endpoint, "replica", replica)
                .register(registry);
    }

    /**
     * Publishes the informer ingest's backlog, as {@code current} reads it: changes to the shared state and resync
     * reads queued or in flight (a resync after a migration can queue one live read per charged pod of the keys it
     * took over; the gauge shows how long that takes to drain).
     */
    public void ingestBacklog(IntSupplier current) {
        Gauge.builder("vgpu.ingest.backlog", current, IntSupplier::getAsInt)
                .description("Informer changes and resync reads not applied to the shared state yet")
                .strongReference(true)
                .tags("replica", replica)
                .register(registry);
    }
}
