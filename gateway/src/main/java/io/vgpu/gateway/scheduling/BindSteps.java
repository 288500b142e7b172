package io.vgpu.gateway.scheduling;

import io.vertx.core.Future;
import io.vgpu.gateway.core.port.ObservedPod;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Function;

/**
 * How {@link BindService}'s steps chain: where a bind stands between two steps ({@link Going} on, or {@link Done}
 * with its outcome and the event to record), and the combinators that run the next step only while the bind is going
 * and turn a step's failure into the bind's reported refusal. Refusals log under {@link BindService}'s logger.
 */
final class BindSteps {

    private static final Logger LOG = LoggerFactory.getLogger(BindService.class);

    private BindSteps() {
    }

    /** Where a bind stands between two steps. */
    sealed interface Step permits Going, Done {
    }

    /** What a bind knows so far: the request, the pod once looked up, whether it holds the node locks. */
    record Attempt(BindRequest request, ObservedPod pod, boolean locked) {
        Attempt with(ObservedPod observed) {
            return new Attempt(request, observed, locked);
        }

        Attempt holdingLocks() {
            return new Attempt(request, pod, true);
        }
    }

    /** On to the next step. */
    record Going(Attempt attempt) implements Step {
    }

    /** Finished with {@code outcome}; {@code event} is the BindingFailed text to record on the pod, or null. */
    record Done(Attempt attempt, BindOutcome outcome, String event) implements Step {
    }

    /** The next step, when the bind is still going; an unexpected failure of the step finishes the bind. */
    static Function<Step, Future<Step>> then(Function<Attempt, Future<Step>> next) {
        return step -> step instanceof Going going ? step(going.attempt(), next) : Future.succeededFuture(step);
    }

    /** Runs one step; a thrown exception or a failed future becomes the bind's reported failure. */
    static Future<Step> step(Attempt attempt, Function<Attempt, Future<Step>> next) {
        Future<Step> ran;
        try {
            ran = next.apply(attempt);
        } catch (RuntimeException e) {
            ran = Future.failedFuture(e);
        }
        return ran.recover(e -> reported(attempt, DecisionFailure.of(e), DecisionFailure.message(e)));
    }

    static Future<Step> proceed(Attempt attempt) {
        return Future.succeededFuture(new Going(attempt));
    }

    static Future<Step> finished(Attempt attempt, BindOutcome outcome, String event) {
        return Future.succeededFuture(new Done(attempt, outcome, event));
    }

    static Future<Step> done(Attempt attempt, DecisionFailure cause, String message, String event) {
        return finished(attempt, new BindOutcome.Refused(cause, message), event);
    }

    /** A refusal that is logged and recorded as the pod's BindingFailed event. */
    static Future<Step> reported(Attempt attempt, DecisionFailure cause, String message) {
        BindRequest request = attempt.request();
        LOG.warn("bind {} to {}: {}", request.pod(), request.node(), message);
        return done(attempt, cause, message, message);
    }
}
