package io.vgpu.gateway.draview;

import io.vgpu.gateway.core.port.QuotaTickets;
import io.vgpu.gateway.core.quota.QuotaTicket;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.QuotaCharge;
import io.vgpu.state.model.QuotaOutcome;
import io.vgpu.state.model.QuotaState;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * {@link QuotaTickets} over the shared quota map (DESIGN.md §3 "Quota"): a ticket is a charge of the namespace's
 * entry under its own key ({@link QuotaTicket#chargeKey()}) with a deadline, reserved by the entry processor that
 * {@code /filter} uses for its quota reservations. The processor checks the namespace's limit against the sum of
 * every live charge in the entry — the bound pods the informers observed, the filter's reservations and the
 * outstanding tickets — so two replicas racing for the last of a quota cannot both win, whatever their local views
 * say. {@link TicketIngest} turns the ticket into the pod's charge when the pod shows; the periodic
 * {@link ClusterState#sweepExpired} drops a ticket whose pod never showed.
 *
 * <p>This replica also remembers the tickets it granted until their pod is seen or their deadline passes, for the
 * {@code redeemed}/{@code expired} counts of {@link TicketMetrics}. Thread-safe; never blocks.
 */
public final class SharedQuotaTickets implements QuotaTickets {

    /** How long a ticket waits for its pod by default: the pod is created right after its admission. */
    public static final Duration DEFAULT_TTL = Duration.ofSeconds(60);

    private final ClusterState state;
    private final String memoryResource;
    private final String coreResource;
    private final Duration ttl;
    private final Duration callTimeout;
    private final Clock clock;
    private final TicketMetrics metrics;
    private final Supplier<String> ids;
    private final Map<String, Long> granted = new ConcurrentHashMap<>();

    /**
     * @param memoryResource the memory resource's name for messages (e.g. {@code nvidia.com/gpumem})
     * @param coreResource   the core resource's name for messages (e.g. {@code nvidia.com/gpucores})
     * @param ttl            how long a ticket waits for its pod
     * @param callTimeout    how long the shared state may take to answer before the ticket is Unavailable
     */
    public SharedQuotaTickets(ClusterState state, String memoryResource, String coreResource, Duration ttl,
                              Duration callTimeout, Clock clock, TicketMetrics metrics) {
        this(state, memoryResource, coreResource, ttl, callTimeout, clock, metrics, () -> UUID.randomUUID().toString());
    }

    SharedQuotaTickets(ClusterState state, String memoryResource, String coreResource, Duration ttl,
                       Duration callTimeout, Clock clock, TicketMetrics metrics, Supplier<String> ids) {
        this.state = Objects.requireNonNull(state, "state");
        this.memoryResource = Objects.requireNonNull(memoryResource, "memoryResource");
        this.coreResource = Objects.requireNonNull(coreResource, "coreResource");
        if (ttl.isNegative() || ttl.isZero() || callTimeout.isNegative() || callTimeout.isZero()) {
            throw new IllegalArgumentException("ticket TTL and call timeout must be positive");
        }
        this.ttl = ttl;
        this.callTimeout = callTimeout;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.ids = Objects.requireNonNull(ids, "ids");
    }

    @Override
    public CompletionStage<Outcome> issue(String namespace, long memoryMiB, long cores) {
        if (memoryMiB < 0 || cores < 0) {
            metrics.count("refused");
            return CompletableFuture.completedFuture(new Outcome.Refused(
                    "invalid GPU request: memory " + memoryMiB + " MiB, cores " + cores + " (negative)"));
        }
        QuotaState local = state.quota(namespace);
        if (local == null || local.limits().none()) {
            return CompletableFuture.completedFuture(new Outcome.Unlimited());
        }
        QuotaTicket ticket = new QuotaTicket(ids.get(), memoryMiB, cores);
        long now = clock.millis();
        long deadline = now + ttl.toMillis();
        CompletionStage<QuotaOutcome> reserved;
        try {
            reserved = state.reserveQuota(namespace, ticket.chargeKey(), memoryMiB, cores, now, deadline);
        } catch (RuntimeException e) {
            reserved = CompletableFuture.failedFuture(e);
        }
        return reserved.toCompletableFuture().orTimeout(callTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .handle((outcome, failure) -> decide(namespace, ticket, deadline, outcome, failure));
    }

    private Outcome decide(String namespace, QuotaTicket ticket, long deadline, QuotaOutcome outcome,
                           Throwable failure) {
        if (failure != null) {
            metrics.count("unavailable");
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            String why = cause instanceof TimeoutException ? "no answer within " + callTimeout.toMillis() + " ms"
                    : cause.toString();
            return new Outcome.Unavailable("the shared quota state of namespace " + namespace + " is unavailable: "
                    + why);
        }
        if (outcome instanceof QuotaOutcome.Exceeded exceeded) {
            metrics.count("refused");
            return new Outcome.Refused(refusal(namespace, ticket, exceeded));
        }
        granted.put(ticket.chargeKey(), deadline);
        metrics.count("granted");
        return new Outcome.Granted(ticket.encode());
    }

    /** HAMi's words first ({@code exceeding resource quota}), then which limit, what was asked and what is used. */
    private String refusal(String namespace, QuotaTicket ticket, QuotaOutcome.Exceeded exceeded) {
        QuotaState q = state.quota(namespace);
        StringBuilder b = new StringBuilder("exceeding resource quota: namespace ").append(namespace);
        if (exceeded.memory()) {
            b.append(": ").append(memoryResource).append(" asks ").append(ticket.memoryMiB()).append(" MiB, ")
                    .append(q.memory().used()).append(" MiB of the limit ").append(q.limits().memory())
                    .append(" MiB are used or reserved");
        }
        if (exceeded.cores()) {
            b.append(exceeded.memory() ? "; " : ": ").append(coreResource).append(" asks ").append(ticket.cores())
                    .append(", ").append(q.cores().used()).append(" of the limit ").append(q.limits().cores())
                    .append(" are used or reserved");
        }
        return b.toString();
    }

    /** The pod of a ticket this replica may have granted was seen: counts it redeemed once. */
    void seen(QuotaTicket ticket) {
        if (granted.remove(ticket.chargeKey()) != null) {
            metrics.count("redeemed");
        }
    }

    /**
     * Forgets the tickets granted here whose deadline passed without their pod, counting them expired (the shared
     * state's sweep drops their charges). Call it periodically.
     *
     * @return how many expired
     */
    public int sweep() {
        long now = clock.millis();
        int expired = 0;
        for (Map.Entry<String, Long> e : granted.entrySet()) {
            if (e.getValue() <= now && granted.remove(e.getKey(), e.getValue())) {
                metrics.count("expired");
                expired++;
            }
        }
        return expired;
    }

    /** Whether a quota charge is a ticket that still waits for its pod (for the debug page). */
    static boolean waiting(String chargeKey, QuotaCharge charge) {
        return QuotaTicket.isTicketKey(chargeKey) && !charge.isBound();
    }
}
