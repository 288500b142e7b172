package io.vgpu.state.model;

/**
 * The result of applying one change to an immutable state value: the next value and the outcome to report.
 * When {@code changed} is false, {@code next} is the very value the change was applied to and the store
 * writes nothing (so that an idempotent retry causes no replication and no listener event).
 *
 * @param next    the value after the change
 * @param outcome what the caller is told
 * @param changed whether {@code next} differs from the value the change was applied to
 * @param <S>     the state type
 * @param <O>     the outcome type
 */
public record Transition<S, O>(S next, O outcome, boolean changed) {

    /** A transition that keeps {@code same}. */
    public static <S, O> Transition<S, O> unchanged(S same, O outcome) {
        return new Transition<>(same, outcome, false);
    }

    /** A transition to {@code next}. */
    public static <S, O> Transition<S, O> to(S next, O outcome) {
        return new Transition<>(next, outcome, true);
    }
}
