package io.vgpu.hamicore;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An NVML event set with XID critical-error events registered for some devices
 * ({@link Nvml#openXidEvents}). Wait on it from one dedicated thread ({@link XidWatcher} does).
 */
public interface XidEventSet extends AutoCloseable {

    /** Device indices whose XID events this set receives. */
    List<Integer> registeredDevices();

    /** Device indices whose registration failed, with the NVML error (often {@code NOT_SUPPORTED}). */
    Map<Integer, NvmlException> failedDevices();

    /**
     * Waits up to {@code timeout} for the next event ({@code nvmlEventSetWait_v2}). Blocks the
     * calling thread for up to that long.
     *
     * @return the event, or empty when none arrived in time
     * @throws NvmlException for any NVML error other than the timeout (HAMi then marks every
     *                       device unhealthy)
     */
    Optional<XidEvent> await(Duration timeout);

    /** Frees the set; waits for an {@link #await} in progress to return first. Idempotent. */
    @Override
    void close();
}
