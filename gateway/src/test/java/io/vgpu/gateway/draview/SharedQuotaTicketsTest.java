package io.vgpu.gateway.draview;

import io.vgpu.gateway.core.port.QuotaTickets;
import io.vgpu.gateway.testing.InMemoryClusterState;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.ClusterStateUnavailableException;
import io.vgpu.state.model.QuotaLimits;
import io.vgpu.testsupport.ManualClock;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The outcomes of {@link SharedQuotaTickets#issue} that need no second replica: never an exception, always a value. */
class SharedQuotaTicketsTest {

    private final InMemoryClusterState memory = new InMemoryClusterState();
    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));

    @Test
    void aSharedStateThatDoesNotAnswerInTimeIsUnavailableNotAnException() {
        memory.setQuotaLimits("team", new QuotaLimits(8_000, true, 0, false));
        SharedQuotaTickets tickets = tickets(reserveAnswering(new CompletableFuture<>()), Duration.ofMillis(50));

        QuotaTickets.Outcome outcome = await(tickets.issue("team", 1_000, 0));

        assertThat(outcome).isInstanceOf(QuotaTickets.Outcome.Unavailable.class);
        assertThat(((QuotaTickets.Outcome.Unavailable) outcome).reason())
                .isEqualTo("the shared quota state of namespace team is unavailable: no answer within 50 ms");
    }

    @Test
    void aSharedStateWithoutQuorumIsUnavailable() {
        memory.setQuotaLimits("team", new QuotaLimits(8_000, true, 0, false));
        SharedQuotaTickets tickets = tickets(reserveAnswering(CompletableFuture.failedFuture(
                new ClusterStateUnavailableException("no quorum", null))), Duration.ofSeconds(5));

        QuotaTickets.Outcome outcome = await(tickets.issue("team", 1_000, 0));

        assertThat(outcome).isInstanceOf(QuotaTickets.Outcome.Unavailable.class);
        assertThat(((QuotaTickets.Outcome.Unavailable) outcome).reason()).contains("no quorum");
    }

    @Test
    void negativeAmountsAreRefusedWithoutTouchingTheState() {
        memory.setQuotaLimits("team", new QuotaLimits(8_000, true, 0, false));
        SharedQuotaTickets tickets = tickets(memory, Duration.ofSeconds(5));

        assertThat(await(tickets.issue("team", -1, 0))).isInstanceOf(QuotaTickets.Outcome.Refused.class);
        assertThat(memory.quota("team").charges()).isEmpty();
    }

    @Test
    void theCoreLimitIsNamedWhenItIsTheOneExceeded() {
        memory.setQuotaLimits("team", new QuotaLimits(0, false, 100, true));
        SharedQuotaTickets tickets = tickets(memory, Duration.ofSeconds(5));
        assertThat(await(tickets.issue("team", 1_000, 80))).isInstanceOf(QuotaTickets.Outcome.Granted.class);

        QuotaTickets.Outcome refused = await(tickets.issue("team", 1_000, 30));

        assertThat(((QuotaTickets.Outcome.Refused) refused).message()).isEqualTo("exceeding resource quota: "
                + "namespace team: nvidia.com/gpucores asks 30, 80 of the limit 100 are used or reserved");
    }

    private SharedQuotaTickets tickets(ClusterState state, Duration timeout) {
        return new SharedQuotaTickets(state, "nvidia.com/gpumem", "nvidia.com/gpucores", Duration.ofSeconds(60),
                timeout, clock, TicketMetrics.NONE);
    }

    /** The in-memory state, except that every quota reservation answers with {@code answer}. */
    private ClusterState reserveAnswering(CompletionStage<?> answer) {
        return (ClusterState) Proxy.newProxyInstance(ClusterState.class.getClassLoader(),
                new Class<?>[] {ClusterState.class}, (proxy, method, args) -> {
                    if (method.getName().equals("reserveQuota")) {
                        return answer;
                    }
                    try {
                        return method.invoke(memory, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private static <T> T await(CompletionStage<T> stage) {
        try {
            return stage.toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("stage did not complete: " + e, e);
        }
    }
}
