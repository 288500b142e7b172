package io.vgpu.gateway.scheduling;

import io.vertx.core.Future;

import java.util.Optional;

/**
 * One try at the shared half of the lock, made again while it is contended: the model's lock outcome, or empty
 * when the try decided without the lock ({@link LockAcquisition.Declined}).
 */
@FunctionalInterface
interface SharedLockTry {
    /** Makes the try; {@code nowMillis} is the time the lock records. */
    Future<Optional<io.vgpu.state.model.LockOutcome>> attempt(long nowMillis);
}
