package io.vgpu.state.model;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class QuotaStateTest {

    private static final long NOW = 100;
    private static final long BOUND = QuotaCharge.NO_DEADLINE;
    /** 10000 MiB and 100 cores enforced. */
    private static final QuotaLimits LIMITS = new QuotaLimits(10000, true, 100, true);

    private static QuotaState ns(QuotaLimits limits, Map<String, QuotaCharge> charges) {
        return new QuotaState("ns", limits, charges);
    }

    static Stream<Arguments> transitions() {
        return Stream.of(
                row("a charge that fits", ns(LIMITS, Map.of()),
                        q -> q.reserve("a", 4000, 50, NOW, 1000),
                        new QuotaOutcome.Reserved(1000), new QuotaCharge(4000, 50, 1000), true),
                row("memory over the limit", ns(LIMITS, Map.of("b", new QuotaCharge(8000, 0, BOUND))),
                        q -> q.reserve("a", 4000, 50, NOW, 1000),
                        new QuotaOutcome.Exceeded(true, false), null, false),
                row("both over the limit", ns(LIMITS, Map.of("b", new QuotaCharge(8000, 80, BOUND))),
                        q -> q.reserve("a", 4000, 50, NOW, 1000),
                        new QuotaOutcome.Exceeded(true, true), null, false),
                row("no limits: usage is tracked, nothing refused", ns(QuotaLimits.NONE, Map.of()),
                        q -> q.reserve("a", 1_000_000, 500, NOW, 1000),
                        new QuotaOutcome.Reserved(1000), new QuotaCharge(1_000_000, 500, 1000), true),
                row("the same charge twice counts once", ns(LIMITS, Map.of("a", new QuotaCharge(6000, 0, 1000))),
                        q -> q.reserve("a", 6000, 0, NOW, 900),
                        new QuotaOutcome.Reserved(1000), new QuotaCharge(6000, 0, 1000), false),
                row("confirming with NO_DEADLINE binds without a re-check",
                        ns(new QuotaLimits(1, true, 0, false), Map.of("a", new QuotaCharge(6000, 0, 1000))),
                        q -> q.reserve("a", 6000, 0, NOW, BOUND),
                        new QuotaOutcome.Reserved(BOUND), new QuotaCharge(6000, 0, BOUND), true),
                row("new amounts are re-checked without the pod's own charge",
                        ns(LIMITS, Map.of("a", new QuotaCharge(6000, 0, 1000))),
                        q -> q.reserve("a", 9000, 0, NOW, 1000),
                        new QuotaOutcome.Reserved(1000), new QuotaCharge(9000, 0, 1000), true),
                row("a bound charge never gets a deadline again", ns(LIMITS, Map.of("a", new QuotaCharge(6000, 0, BOUND))),
                        q -> q.reserve("a", 5000, 0, NOW, 1000),
                        new QuotaOutcome.Reserved(BOUND), new QuotaCharge(5000, 0, BOUND), true),
                row("an expired charge of another pod frees the quota",
                        ns(LIMITS, Map.of("b", new QuotaCharge(8000, 0, NOW))),
                        q -> q.reserve("a", 4000, 0, NOW, 1000),
                        new QuotaOutcome.Reserved(1000), new QuotaCharge(4000, 0, 1000), true),
                row("the informer's bound pod is charged without a check",
                        ns(LIMITS, Map.of("b", new QuotaCharge(10000, 100, BOUND))),
                        q -> q.observe("a", 4000, 50), true, new QuotaCharge(4000, 50, BOUND), true),
                row("release drops the charge", ns(LIMITS, Map.of("a", new QuotaCharge(1, 1, 1000))),
                        q -> q.release("a"), true, null, true),
                row("release of nothing", ns(LIMITS, Map.of()), q -> q.release("a"), false, null, false),
                row("expire drops unconfirmed charges at their deadline",
                        ns(LIMITS, Map.of("a", new QuotaCharge(1, 1, NOW), "b", new QuotaCharge(1, 1, BOUND))),
                        q -> q.expire(NOW), List.of("a"), null, true));
    }

    private static Arguments row(String name, QuotaState before, Function<QuotaState, Transition<QuotaState, ?>> change,
                                 Object outcome, QuotaCharge chargeAfter, boolean changed) {
        return arguments(name, before, change, outcome, chargeAfter, changed);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transitions")
    void quotaTransitions(String name, QuotaState before, Function<QuotaState, Transition<QuotaState, ?>> change,
                          Object outcome, QuotaCharge chargeAfter, boolean changed) {
        Transition<QuotaState, ?> t = change.apply(before);

        assertThat(t.outcome()).isEqualTo(outcome);
        assertThat(t.next().charge("a")).isEqualTo(chargeAfter);
        assertThat(t.changed()).isEqualTo(changed);
    }

    @Test
    void usageIsTheSumOfChargesAndLimitsComeFromTheQuota() {
        QuotaState q = ns(LIMITS, Map.of("a", new QuotaCharge(1000, 10, BOUND), "b", new QuotaCharge(2000, 20, 5)));

        assertThat(q.memory()).isEqualTo(new QuotaLimit(3000, 10000, true));
        assertThat(q.cores()).isEqualTo(new QuotaLimit(30, 100, true));
    }

    @Test
    void limitsChangeKeepsChargesAndVacancyNeedsNeither() {
        QuotaState q = ns(LIMITS, Map.of("a", new QuotaCharge(1000, 10, BOUND)));

        Transition<QuotaState, Boolean> cleared = q.withLimits(QuotaLimits.NONE);

        assertThat(cleared.outcome()).isTrue();
        assertThat(cleared.next().charges()).isEqualTo(q.charges());
        assertThat(cleared.next().withLimits(null).changed()).isFalse();
        assertThat(cleared.next().isVacant()).isFalse();
        assertThat(cleared.next().release("a").next().isVacant()).isTrue();
        assertThat(QuotaState.absent("ns").isVacant()).isTrue();
    }
}
