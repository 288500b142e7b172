package io.vgpu.gateway.draview;

import com.hazelcast.config.Config;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vgpu.gateway.core.port.QuotaTickets;
import io.vgpu.gateway.core.quota.QuotaTicket;
import io.vgpu.state.model.QuotaCharge;
import io.vgpu.state.model.QuotaLimits;
import io.vgpu.state.model.QuotaState;
import io.vgpu.state.store.HazelcastClusterState;
import io.vgpu.state.store.HazelcastMemberConfig;
import io.vgpu.state.store.StoreConfig;
import io.vgpu.gateway.testflow.TestFlow;
import io.vgpu.testsupport.ManualClock;
import io.vgpu.testsupport.Ports;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

import static io.vgpu.gateway.testflow.TestFlow.finish;
import static io.vgpu.gateway.testflow.TestFlow.step;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Quota tickets (issue 13 item 2) against two real embedded Hazelcast members, each a replica with its own
 * {@link SharedQuotaTickets} and {@link TicketIngest}: the reservation is atomic in the shared quota map, a ticket
 * becomes its pod's charge without being counted twice, is released when the pod ends, and expires when no pod
 * shows.
 */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QuotaTicketsTest {

    /** Kept in a field: java.util.logging holds loggers weakly. */
    private static final Logger HAZELCAST_LOG = Logger.getLogger("com.hazelcast");
    private static final Duration TTL = Duration.ofSeconds(60);
    private static final int RACES = 12;

    private final List<HazelcastClusterState> replicas = new ArrayList<>();
    private final List<SharedQuotaTickets> tickets = new ArrayList<>();
    private final List<TicketIngest> ingests = new ArrayList<>();
    private final List<SimpleMeterRegistry> meters = new ArrayList<>();
    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private Vertx vertx;

    @BeforeAll
    void startTwoReplicas(Vertx vertx, VertxTestContext ctx) {
        this.vertx = vertx;
        HAZELCAST_LOG.setLevel(Level.SEVERE);
        int port = Ports.free();
        StoreConfig store = new StoreConfig("vgpu-tickets-" + UUID.randomUUID(),
                List.of("127.0.0.1:" + port, "127.0.0.1:" + (port + 1), "127.0.0.1:" + (port + 2)), "127.0.0.1", port,
                1, 0, 7);
        for (int i = 0; i < 2; i++) {
            Config member = HazelcastMemberConfig.build(store);
            member.setProperty("hazelcast.logging.type", "jdk");
            member.setProperty("hazelcast.wait.seconds.before.join", "1");
            member.setProperty("hazelcast.max.wait.seconds.before.join", "2");
            HazelcastClusterState state = HazelcastClusterState.start(member);
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            SharedQuotaTickets t = new SharedQuotaTickets(state, "nvidia.com/gpumem", "nvidia.com/gpucores", TTL,
                    Duration.ofSeconds(10), clock, new TicketMetrics(registry, "r" + i));
            replicas.add(state);
            tickets.add(t);
            ingests.add(new TicketIngest(state, t));
            meters.add(registry);
        }
        finish(ctx, holds("two members, cluster safe", () -> replicas.stream().allMatch(r ->
                        r.member().getCluster().getMembers().size() == 2
                                && r.member().getPartitionService().isClusterSafe()))
                .compose(safe -> Future.all(replicas.stream().map(r -> step(r.ready())).toList())), ready -> { });
    }

    @AfterAll
    void stop() {
        replicas.forEach(r -> r.member().getLifecycleService().terminate());
    }

    @Test
    void twoReplicasRacingForTheLastOfAQuotaExactlyOneWinsEveryTime(VertxTestContext ctx) {
        double grantedBefore = meters.stream().mapToDouble(m -> count(m, "granted")).sum();
        double refusedBefore = meters.stream().mapToDouble(m -> count(m, "refused")).sum();
        Future<Void> rounds = Future.succeededFuture();
        for (int round = 0; round < RACES; round++) {
            String prefix = "race-" + round;
            rounds = rounds.compose(previous -> race(prefix));
        }
        finish(ctx, rounds, raced -> {
            double granted = meters.stream().mapToDouble(m -> count(m, "granted")).sum();
            double refused = meters.stream().mapToDouble(m -> count(m, "refused")).sum();
            assertThat(granted - grantedBefore).isEqualTo(RACES);
            assertThat(refused - refusedBefore).isEqualTo(RACES);
        });
    }

    /** One round: 6000 of 10000 MiB bound, both replicas ask 4000 at once; exactly one is granted. */
    private Future<Void> race(String prefix) {
        return limited(prefix, 10_000, 0).compose(ns -> step(replicas.get(0).observeQuota(ns, "bound-pod", 6_000, 0))
                .compose(observed -> holds("every view has the bound pod", () -> replicas.stream()
                        .allMatch(r -> r.quota(ns).memory().used() == 6_000)))
                .compose(seen -> {
                    Future<QuotaTickets.Outcome> a = step(tickets.get(0).issue(ns, 4_000, 0));
                    Future<QuotaTickets.Outcome> b = step(tickets.get(1).issue(ns, 4_000, 0));
                    return Future.all(a, b).map(both -> List.of(a.result(), b.result()));
                })
                .compose(outcomes -> {
                    assertThat(outcomes).filteredOn(o -> o instanceof QuotaTickets.Outcome.Granted).as(ns).hasSize(1);
                    QuotaTickets.Outcome.Refused refused = (QuotaTickets.Outcome.Refused) outcomes.stream()
                            .filter(o -> o instanceof QuotaTickets.Outcome.Refused).findFirst().orElseThrow();
                    assertThat(refused.message()).startsWith("exceeding resource quota: namespace " + ns)
                            .contains("nvidia.com/gpumem asks 4000 MiB").contains("of the limit 10000 MiB");
                    return authoritative(ns);
                })
                .map(q -> {
                    assertThat(q.memory().used()).as(ns).isEqualTo(10_000);
                    return null;
                }));
    }

    @Test
    void aTicketBecomesItsPodsChargeOnceAndIsReleasedWhenThePodEnds(VertxTestContext ctx) {
        Future<Void> flow = limited("redeem", 8_000, 200).compose(ns -> granted(tickets.get(1).issue(ns, 3_000, 50))
                .compose(ticket -> authoritative(ns).compose(issued -> {
                    QuotaCharge waiting = issued.charge(ticket.chargeKey());
                    assertThat(waiting.isBound()).isFalse();
                    assertThat(waiting.deadlineMillis()).isEqualTo(clock.millis() + TTL.toMillis());

                    TicketedPod pod = new TicketedPod(ns, "p", "uid-p", ticket, false, "1");
                    ingests.forEach(i -> i.upsert(pod)); // every replica sees every pod; only the owner writes
                    return eventually("the ticket is the pod's charge",
                            () -> authoritative(ns).map(q -> q.charge(ticket.chargeKey()).isBound()));
                }).compose(bound -> authoritative(ns)).compose(q -> {
                    assertThat(q.charges()).hasSize(1);
                    assertThat(q.memory().used()).as("counted once").isEqualTo(3_000);
                    assertThat(q.cores().used()).isEqualTo(50);
                    assertThat(count(meters.get(1), "redeemed")).isEqualTo(1);

                    // the pod's charge survives the ticket's deadline (a bound charge never expires) ...
                    clock.advance(TTL.plusSeconds(1));
                    return sweepAll();
                }).compose(swept -> {
                    assertThat(tickets.get(1).sweep()).isZero();
                    return authoritative(ns);
                }).compose(q -> {
                    assertThat(q.memory().used()).isEqualTo(3_000);

                    // ... and goes when the pod ends
                    TicketedPod done = new TicketedPod(ns, "p", "uid-p", ticket, true, "2");
                    ingests.forEach(i -> i.upsert(done));
                    return eventually("released", () -> authoritative(ns).map(left -> left.charges().isEmpty()));
                })));
        finish(ctx, flow, released -> { });
    }

    @Test
    void aDeletedPodReleasesItsChargeAndAnEditedAnnotationCannotLowerIt(VertxTestContext ctx) {
        Future<Void> flow = limited("delete", 8_000, 0).compose(ns -> granted(tickets.get(0).issue(ns, 5_000, 0))
                .compose(ticket -> {
                    QuotaTicket edited = new QuotaTicket(ticket.id(), 1, 0);
                    TicketedPod pod = new TicketedPod(ns, "p", "uid-p", edited, false, "1");
                    ingests.forEach(i -> i.upsert(pod));
                    return eventually("bound", () -> authoritative(ns).map(q -> q.charge(ticket.chargeKey())
                            .isBound()))
                            .compose(bound -> authoritative(ns))
                            .compose(q -> {
                                assertThat(q.memory().used()).isEqualTo(5_000);
                                ingests.forEach(i -> i.deleted(pod));
                                return eventually("released",
                                        () -> authoritative(ns).map(left -> left.charges().isEmpty()));
                            });
                }));
        finish(ctx, flow, released -> { });
    }

    @Test
    void aTicketWhosePodNeverShowsExpiresAndFreesTheQuota(VertxTestContext ctx) {
        Future<QuotaTickets.Outcome> flow = limited("expire", 4_000, 0).compose(ns ->
                granted(tickets.get(0).issue(ns, 4_000, 0))
                        .compose(ticket -> holds("every view has the ticket", () -> replicas.stream()
                                .allMatch(r -> r.quota(ns).charge(ticket.chargeKey()) != null)))
                        .compose(seen -> step(tickets.get(1).issue(ns, 1, 0)))
                        .compose(full -> {
                            assertThat(full).isInstanceOf(QuotaTickets.Outcome.Refused.class);
                            clock.advance(TTL);
                            return sweepAll();
                        })
                        .compose(swept -> {
                            assertThat(tickets.get(0).sweep()).isEqualTo(1);
                            assertThat(count(meters.get(0), "expired")).isEqualTo(1);
                            return authoritative(ns);
                        })
                        .compose(q -> {
                            assertThat(q.charges()).isEmpty();
                            return step(tickets.get(1).issue(ns, 4_000, 0));
                        }));
        finish(ctx, flow, again -> assertThat(again).isInstanceOf(QuotaTickets.Outcome.Granted.class));
    }

    @Test
    void aNamespaceWithoutAGpuQuotaIsUnlimitedAndReservesNothing(VertxTestContext ctx) {
        Future<QuotaState> flow = step(tickets.get(0).issue("free", 80_000, 100)).compose(outcome -> {
            assertThat(outcome).isInstanceOf(QuotaTickets.Outcome.Unlimited.class);
            return authoritative("free");
        });
        finish(ctx, flow, q -> assertThat(q.charges()).isEmpty());
    }

    @Test
    void theRepairReleasesTheChargeOfAPodWhoseDeletionWasMissed(VertxTestContext ctx) {
        Future<Void> flow = limited("repair", 8_000, 0).compose(ns -> granted(tickets.get(0).issue(ns, 1_000, 0))
                .compose(kept -> granted(tickets.get(0).issue(ns, 2_000, 0)).compose(vanished -> {
                    TicketedPod live = new TicketedPod(ns, "live", "uid-l", kept, false, "1");
                    TicketedPod gone = new TicketedPod(ns, "gone", "uid-g", vanished, false, "1");
                    ingests.forEach(i -> {
                        i.upsert(live);
                        i.upsert(gone);
                    });
                    return holds("both bound in every view", () -> replicas.stream().allMatch(r ->
                            r.quota(ns).charges().values().stream().filter(QuotaCharge::isBound).count() == 2))
                            .compose(bound -> {
                                ingests.forEach(i -> i.repair(List.of(ns), List.of(live)));
                                return eventually("only the live pod's charge is left", () -> authoritative(ns)
                                        .map(q -> q.charges().keySet().equals(Set.of(kept.chargeKey()))));
                            });
                })));
        finish(ctx, flow, repaired -> { });
    }

    // ---- helpers ----

    /** A fresh namespace named after {@code prefix} with these limits, once every replica's view has them. */
    private Future<String> limited(String prefix, long memory, long cores) {
        String ns = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        return step(replicas.get(0).setQuotaLimits(ns, new QuotaLimits(memory, memory > 0, cores, cores > 0)))
                .compose(set -> holds("every view has the limits of " + ns, () -> replicas.stream()
                        .allMatch(r -> !r.quota(ns).limits().none())))
                .map(ns);
    }

    /** Namespace {@code ns}'s value in the quota map itself (not a replica's snapshot). */
    private Future<QuotaState> authoritative(String ns) {
        return step(replicas.get(0).member().<String, QuotaState>getMap(HazelcastMemberConfig.QUOTA_MAP)
                .getAsync(ns)).map(q -> q == null ? QuotaState.absent(ns) : q);
    }

    private Future<Void> sweepAll() {
        return Future.all(replicas.stream().map(r -> step(r.sweepExpired(clock.millis()))).toList()).mapEmpty();
    }

    private static Future<QuotaTicket> granted(CompletionStage<QuotaTickets.Outcome> issued) {
        return step(issued).map(outcome -> {
            assertThat(outcome).isInstanceOf(QuotaTickets.Outcome.Granted.class);
            return QuotaTicket.decode(((QuotaTickets.Outcome.Granted) outcome).annotationValue()).orElseThrow();
        });
    }

    private static double count(SimpleMeterRegistry registry, String outcome) {
        var counter = registry.find("vgpu.quota.tickets").tag("outcome", outcome).counter();
        return counter == null ? 0 : counter.count();
    }

    private Future<Void> eventually(String what, Supplier<Future<Boolean>> condition) {
        return TestFlow.eventually(vertx, Duration.ofSeconds(20), what, condition);
    }

    /** {@link #eventually} for a condition on the replicas' local views (no round trip). */
    private Future<Void> holds(String what, BooleanSupplier condition) {
        return eventually(what, () -> Future.succeededFuture(condition.getAsBoolean()));
    }
}
