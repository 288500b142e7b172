package io.vgpu.gateway.draview;

import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vgpu.gateway.core.port.QuotaTickets;
import io.vgpu.gateway.testing.InMemoryClusterState;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.ClusterStateUnavailableException;
import io.vgpu.state.model.QuotaLimits;
import io.vgpu.testsupport.ManualClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import static io.vgpu.gateway.testflow.TestFlow.finish;
import static io.vgpu.gateway.testflow.TestFlow.step;
import static org.assertj.core.api.Assertions.assertThat;

/** The outcomes of {@link SharedQuotaTickets#issue} that need no second replica: never an exception, always a value. */
@ExtendWith(VertxExtension.class)
class SharedQuotaTicketsTest {

    private final InMemoryClusterState memory = new InMemoryClusterState();
    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));

    @Test
    void aSharedStateThatDoesNotAnswerInTimeIsUnavailableNotAnException(VertxTestContext ctx) {
        memory.setQuotaLimits("team", new QuotaLimits(8_000, true, 0, false));
        SharedQuotaTickets tickets = tickets(reserveAnswering(new CompletableFuture<>()), Duration.ofMillis(50));

        finish(ctx, step(tickets.issue("team", 1_000, 0)), outcome -> {
            assertThat(outcome).isInstanceOf(QuotaTickets.Outcome.Unavailable.class);
            assertThat(((QuotaTickets.Outcome.Unavailable) outcome).reason())
                    .isEqualTo("the shared quota state of namespace team is unavailable: no answer within 50 ms");
        });
    }

    @Test
    void aSharedStateWithoutQuorumIsUnavailable(VertxTestContext ctx) {
        memory.setQuotaLimits("team", new QuotaLimits(8_000, true, 0, false));
        SharedQuotaTickets tickets = tickets(reserveAnswering(CompletableFuture.failedFuture(
                new ClusterStateUnavailableException("no quorum", null))), Duration.ofSeconds(5));

        finish(ctx, step(tickets.issue("team", 1_000, 0)), outcome -> {
            assertThat(outcome).isInstanceOf(QuotaTickets.Outcome.Unavailable.class);
            assertThat(((QuotaTickets.Outcome.Unavailable) outcome).reason()).contains("no quorum");
        });
    }

    @Test
    void negativeAmountsAreRefusedWithoutTouchingTheState(VertxTestContext ctx) {
        memory.setQuotaLimits("team", new QuotaLimits(8_000, true, 0, false));
        SharedQuotaTickets tickets = tickets(memory, Duration.ofSeconds(5));

        finish(ctx, step(tickets.issue("team", -1, 0)), outcome -> {
            assertThat(outcome).isInstanceOf(QuotaTickets.Outcome.Refused.class);
            assertThat(memory.quota("team").charges()).isEmpty();
        });
    }

    @Test
    void theCoreLimitIsNamedWhenItIsTheOneExceeded(VertxTestContext ctx) {
        memory.setQuotaLimits("team", new QuotaLimits(0, false, 100, true));
        SharedQuotaTickets tickets = tickets(memory, Duration.ofSeconds(5));

        finish(ctx, step(tickets.issue("team", 1_000, 80)).compose(first -> {
            assertThat(first).isInstanceOf(QuotaTickets.Outcome.Granted.class);
            return step(tickets.issue("team", 1_000, 30));
        }), refused -> assertThat(((QuotaTickets.Outcome.Refused) refused).message()).isEqualTo(
                "exceeding resource quota: namespace team: nvidia.com/gpucores asks 30, 80 of the limit 100 are used "
                        + "or reserved"));
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
}
