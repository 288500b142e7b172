package io.vgpu.gateway.draview;

import com.hazelcast.config.Config;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vgpu.gateway.core.port.QuotaTickets;
import io.vgpu.gateway.core.quota.QuotaTicket;
import io.vgpu.state.model.QuotaCharge;
import io.vgpu.state.model.QuotaLimits;
import io.vgpu.state.model.QuotaState;
import io.vgpu.state.store.HazelcastClusterState;
import io.vgpu.state.store.HazelcastMemberConfig;
import io.vgpu.state.store.StoreConfig;
import io.vgpu.testsupport.Eventually;
import io.vgpu.testsupport.ManualClock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Quota tickets (issue 13 item 2) against two real embedded Hazelcast members, each a replica with its own
 * {@link SharedQuotaTickets} and {@link TicketIngest}: the reservation is atomic in the shared quota map, a ticket
 * becomes its pod's charge without being counted twice, is released when the pod ends, and expires when no pod
 * shows.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QuotaTicketsTest {

    /** Kept in a field: java.util.logging holds loggers weakly. */
    private static final Logger HAZELCAST_LOG = Logger.getLogger("com.hazelcast");
    private static final Duration TTL = Duration.ofSeconds(60);

    private final List<HazelcastClusterState> replicas = new ArrayList<>();
    private final List<SharedQuotaTickets> tickets = new ArrayList<>();
    private final List<TicketIngest> ingests = new ArrayList<>();
    private final List<SimpleMeterRegistry> meters = new ArrayList<>();
    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));

    @BeforeAll
    void startTwoReplicas() {
        HAZELCAST_LOG.setLevel(Level.SEVERE);
        int port = freePort();
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
        eventually("two members, cluster safe", () -> replicas.stream().allMatch(r ->
                r.member().getCluster().getMembers().size() == 2 && r.member().getPartitionService().isClusterSafe()));
        replicas.forEach(r -> await(r.ready()));
    }

    @AfterAll
    void stop() {
        replicas.forEach(r -> r.member().getLifecycleService().terminate());
    }

    @Test
    void twoReplicasRacingForTheLastOfAQuotaExactlyOneWinsEveryTime() {
        double grantedBefore = meters.stream().mapToDouble(m -> count(m, "granted")).sum();
        double refusedBefore = meters.stream().mapToDouble(m -> count(m, "refused")).sum();
        for (int round = 0; round < 12; round++) {
            String ns = limited("race-" + round, 10_000, 0);
            await(replicas.get(0).observeQuota(ns, "bound-pod", 6_000, 0));
            eventually("every view has the bound pod", () -> replicas.stream()
                    .allMatch(r -> r.quota(ns).memory().used() == 6_000));

            CompletionStage<QuotaTickets.Outcome> a = tickets.get(0).issue(ns, 4_000, 0);
            CompletionStage<QuotaTickets.Outcome> b = tickets.get(1).issue(ns, 4_000, 0);
            List<QuotaTickets.Outcome> outcomes = List.of(await(a), await(b));

            assertThat(outcomes).filteredOn(o -> o instanceof QuotaTickets.Outcome.Granted).as(ns).hasSize(1);
            QuotaTickets.Outcome.Refused refused = (QuotaTickets.Outcome.Refused) outcomes.stream()
                    .filter(o -> o instanceof QuotaTickets.Outcome.Refused).findFirst().orElseThrow();
            assertThat(refused.message()).startsWith("exceeding resource quota: namespace " + ns)
                    .contains("nvidia.com/gpumem asks 4000 MiB").contains("of the limit 10000 MiB");
            assertThat(authoritative(0, ns).memory().used()).isEqualTo(10_000);
        }
        double granted = meters.stream().mapToDouble(m -> count(m, "granted")).sum();
        double refused = meters.stream().mapToDouble(m -> count(m, "refused")).sum();
        assertThat(granted - grantedBefore).isEqualTo(12);
        assertThat(refused - refusedBefore).isEqualTo(12);
    }

    @Test
    void aTicketBecomesItsPodsChargeOnceAndIsReleasedWhenThePodEnds() {
        String ns = limited("redeem", 8_000, 200);
        QuotaTicket ticket = granted(tickets.get(1).issue(ns, 3_000, 50));
        QuotaCharge waiting = authoritative(0, ns).charge(ticket.chargeKey());
        assertThat(waiting.isBound()).isFalse();
        assertThat(waiting.deadlineMillis()).isEqualTo(clock.millis() + TTL.toMillis());

        TicketedPod pod = new TicketedPod(ns, "p", "uid-p", ticket, false, "1");
        ingests.forEach(i -> i.upsert(pod)); // every replica sees every pod; only the namespace's owner writes
        eventually("the ticket is the pod's charge", () -> authoritative(0, ns).charge(ticket.chargeKey()).isBound());
        QuotaState q = authoritative(0, ns);
        assertThat(q.charges()).hasSize(1);
        assertThat(q.memory().used()).as("counted once").isEqualTo(3_000);
        assertThat(q.cores().used()).isEqualTo(50);
        assertThat(count(meters.get(1), "redeemed")).isEqualTo(1);

        // the pod's charge survives the ticket's deadline (a bound charge never expires) ...
        clock.advance(TTL.plusSeconds(1));
        replicas.forEach(r -> await(r.sweepExpired(clock.millis())));
        assertThat(tickets.get(1).sweep()).isZero();
        assertThat(authoritative(0, ns).memory().used()).isEqualTo(3_000);

        // ... and goes when the pod ends
        TicketedPod done = new TicketedPod(ns, "p", "uid-p", ticket, true, "2");
        ingests.forEach(i -> i.upsert(done));
        eventually("released", () -> authoritative(0, ns).charges().isEmpty());
    }

    @Test
    void aDeletedPodReleasesItsChargeAndAnEditedAnnotationCannotLowerIt() {
        String ns = limited("delete", 8_000, 0);
        QuotaTicket ticket = granted(tickets.get(0).issue(ns, 5_000, 0));
        QuotaTicket edited = new QuotaTicket(ticket.id(), 1, 0);
        TicketedPod pod = new TicketedPod(ns, "p", "uid-p", edited, false, "1");
        ingests.forEach(i -> i.upsert(pod));
        eventually("bound", () -> authoritative(0, ns).charge(ticket.chargeKey()).isBound());
        assertThat(authoritative(0, ns).memory().used()).isEqualTo(5_000);

        ingests.forEach(i -> i.deleted(pod));
        eventually("released", () -> authoritative(0, ns).charges().isEmpty());
    }

    @Test
    void aTicketWhosePodNeverShowsExpiresAndFreesTheQuota() {
        String ns = limited("expire", 4_000, 0);
        QuotaTicket ticket = granted(tickets.get(0).issue(ns, 4_000, 0));
        eventually("every view has the ticket", () -> replicas.stream()
                .allMatch(r -> r.quota(ns).charge(ticket.chargeKey()) != null));
        assertThat(await(tickets.get(1).issue(ns, 1, 0))).isInstanceOf(QuotaTickets.Outcome.Refused.class);

        clock.advance(TTL);
        replicas.forEach(r -> await(r.sweepExpired(clock.millis())));
        assertThat(tickets.get(0).sweep()).isEqualTo(1);
        assertThat(count(meters.get(0), "expired")).isEqualTo(1);
        assertThat(authoritative(0, ns).charges()).isEmpty();
        assertThat(await(tickets.get(1).issue(ns, 4_000, 0))).isInstanceOf(QuotaTickets.Outcome.Granted.class);
    }

    @Test
    void aNamespaceWithoutAGpuQuotaIsUnlimitedAndReservesNothing() {
        assertThat(await(tickets.get(0).issue("free", 80_000, 100)))
                .isInstanceOf(QuotaTickets.Outcome.Unlimited.class);
        assertThat(authoritative(0, "free").charges()).isEmpty();
    }

    @Test
    void theRepairReleasesTheChargeOfAPodWhoseDeletionWasMissed() {
        String ns = limited("repair", 8_000, 0);
        QuotaTicket kept = granted(tickets.get(0).issue(ns, 1_000, 0));
        QuotaTicket vanished = granted(tickets.get(0).issue(ns, 2_000, 0));
        TicketedPod live = new TicketedPod(ns, "live", "uid-l", kept, false, "1");
        TicketedPod gone = new TicketedPod(ns, "gone", "uid-g", vanished, false, "1");
        ingests.forEach(i -> {
            i.upsert(live);
            i.upsert(gone);
        });
        eventually("both bound in every view", () -> replicas.stream().allMatch(r ->
                r.quota(ns).charges().values().stream().filter(QuotaCharge::isBound).count() == 2));

        ingests.forEach(i -> i.repair(List.of(ns), List.of(live)));

        eventually("only the live pod's charge is left", () ->
                authoritative(0, ns).charges().keySet().equals(java.util.Set.of(kept.chargeKey())));
    }

    // ---- helpers ----

    private String limited(String prefix, long memory, long cores) {
        String ns = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        await(replicas.get(0).setQuotaLimits(ns, new QuotaLimits(memory, memory > 0, cores, cores > 0)));
        eventually("every view has the limits of " + ns, () -> replicas.stream()
                .allMatch(r -> !r.quota(ns).limits().none()));
        return ns;
    }

    private QuotaState authoritative(int replica, String ns) {
        QuotaState q = replicas.get(replica).member().<String, QuotaState>getMap(HazelcastMemberConfig.QUOTA_MAP)
                .get(ns);
        return q == null ? QuotaState.absent(ns) : q;
    }

    private static QuotaTicket granted(CompletionStage<QuotaTickets.Outcome> issued) {
        QuotaTickets.Outcome outcome = await(issued);
        assertThat(outcome).isInstanceOf(QuotaTickets.Outcome.Granted.class);
        return QuotaTicket.decode(((QuotaTickets.Outcome.Granted) outcome).annotationValue()).orElseThrow();
    }

    private static double count(SimpleMeterRegistry registry, String outcome) {
        var counter = registry.find("vgpu.quota.tickets").tag("outcome", outcome).counter();
        return counter == null ? 0 : counter.count();
    }

    private static <T> T await(CompletionStage<T> stage) {
        try {
            return stage.toCompletableFuture().get(20, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("stage did not complete: " + e, e);
        }
    }

    private static void eventually(String what, BooleanSupplier condition) {
        Eventually.within(Duration.ofSeconds(20), what, condition);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            int port = socket.getLocalPort();
            return port > 60_000 ? port - 5_000 : port;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
