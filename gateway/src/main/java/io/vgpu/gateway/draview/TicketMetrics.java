package io.vgpu.gateway.draview;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code vgpu_quota_tickets_total{outcome,replica}}: quota tickets by what became of them on this replica.
 * {@code granted}, {@code refused} (over the namespace's quota) and {@code unavailable} (the shared state did not
 * answer) count {@code issue} calls of namespaces with a GPU quota; {@code redeemed} counts tickets this replica
 * granted whose pod its informer then saw, {@code expired} those whose pod it never saw before the deadline (an
 * admission that a later webhook or the API server refused, or a dry run the webhook should not have ticketed).
 * Thread-safe.
 */
public final class TicketMetrics {

    /** A no-op sink, for tests that do not look at metrics. */
    public static final TicketMetrics NONE = new TicketMetrics(null, "");

    private final MeterRegistry registry;
    private final String replica;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    /**
     * @param registry where the counters live (null: counts nothing)
     * @param replica  this replica's name
     */
    public TicketMetrics(MeterRegistry registry, String replica) {
        this.registry = registry;
        this.replica = Objects.requireNonNull(replica, "replica");
    }

    void count(String outcome) {
        if (registry == null) {
            return;
        }
        counters.computeIfAbsent(outcome, o -> Counter.builder("vgpu.quota.tickets")
                        .description("Quota tickets of pods translated to DRA claims, by outcome")
                        .tags("outcome", o, "replica", replica)
                        .register(registry))
                .increment();
    }
}
