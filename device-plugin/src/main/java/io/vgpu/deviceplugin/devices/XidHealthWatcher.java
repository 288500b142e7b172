package io.vgpu.deviceplugin.devices;
import io.vgpu.deviceplugin.health.HealthCause;
import io.vgpu.deviceplugin.health.HealthRecovery;

import io.vgpu.deviceplugin.core.advertise.PhysicalDevice;
import io.vgpu.deviceplugin.core.health.XidPolicy;
import io.vgpu.hamicore.Nvml;
import io.vgpu.hamicore.NvmlException;
import io.vgpu.hamicore.XidEvent;
import io.vgpu.hamicore.XidEventSet;
import io.vgpu.hamicore.XidWatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * NVML XID health checks (spec §1.5) on hamicore's dedicated watcher thread: a device whose event
 * registration fails is unhealthy at once (NOT_SUPPORTED only means "too old to check" and is just logged); an XID critical error that the {@link XidPolicy} does not
 * ignore marks its device (or, without a device UUID, every device) unhealthy; an NVML wait error
 * marks every device unhealthy. Other event types are ignored. With {@link HealthRecovery} on, marks
 * from non-fatal XIDs and wait errors are recoverable ({@link HealthRecoveryVerticle} undoes them).
 */
public final class XidHealthWatcher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(XidHealthWatcher.class);
    private final XidWatcher watcher;

    private XidHealthWatcher(XidWatcher watcher) {
        this.watcher = watcher;
    }

    /**
     * Starts watching the devices of {@code state}; empty when the policy disables every XID check.
     * Blocks briefly (NVML event registration): call from a worker thread.
     *
     * @throws NvmlException when the event set cannot be created
     */
    public static Optional<XidHealthWatcher> start(Nvml nvml, DeviceState state, XidPolicy policy, Duration poll) {
        return start(nvml, state, policy, poll, HealthRecovery.OFF);
    }

    /** As {@link #start(Nvml, DeviceState, XidPolicy, Duration)}; {@code recovery} decides which marks may be undone. */
    public static Optional<XidHealthWatcher> start(Nvml nvml, DeviceState state, XidPolicy policy, Duration poll,
                                                   HealthRecovery recovery) {
        return start(nvml, List.of(state), policy, poll, recovery);
    }

    /**
     * One watcher for several device sets (the static MIG strategies' resources): every event is applied
     * to each of them; a set ignores devices it does not hold.
     */
    public static Optional<XidHealthWatcher> start(Nvml nvml, List<DeviceState> states, XidPolicy policy, Duration poll,
                                                   HealthRecovery recovery) {
        if (policy.allDisabled()) {
            LOG.info("XID health checks disabled");
            return Optional.empty();
        }
        List<Integer> indices = states.stream().flatMap(st -> st.devices().stream()).map(PhysicalDevice::index)
                .distinct().sorted().toList();
        XidEventSet events = nvml.openXidEvents(indices);
        for (Map.Entry<Integer, NvmlException> failed : events.failedDevices().entrySet()) {
            for (DeviceState state : states) {
                state.devices().stream().filter(d -> d.index() == failed.getKey()).forEach(d -> {
                    if (failed.getValue().returnCode() == NvmlException.NOT_SUPPORTED) {
                        LOG.warn("device {} is too old for XID health checks: {}", d.id(), failed.getValue().getMessage());
                    } else {
                        LOG.warn("device {} marked unhealthy: XID event registration failed: {}", d.id(),
                                failed.getValue().getMessage());
                        state.markUnhealthy(d.id());
                    }
                });
            }
        }
        XidWatcher watcher = XidWatcher.start(events, poll, event -> states.forEach(state -> onEvent(event, state, policy, recovery)),
                error -> {
                    LOG.error("NVML event wait failed, marking every device unhealthy: {}", error.getMessage());
                    states.forEach(state -> state.markAllUnhealthy(recovery.forWaitError(error.getMessage())));
                });
        return Optional.of(new XidHealthWatcher(watcher));
    }

    private static void onEvent(XidEvent event, DeviceState state, XidPolicy policy, HealthRecovery recovery) {
        if (!event.isXidCriticalError()) {
            return;
        }
        if (policy.isDisabled(event.xid())) {
            LOG.info("ignoring XID {} on {}", event.xid(), event.hasDevice() ? event.deviceUuid() : "an unknown device");
            return;
        }
        HealthCause cause = recovery.forXid(event.xid());
        if (!event.hasDevice()) {
            LOG.warn("XID {} without a device, marking every device unhealthy{}", event.xid(), cause.recoverable() ? " (recoverable)" : "");
            state.markAllUnhealthy(cause);
            return;
        }
        LOG.warn("XID {} on {}: device marked unhealthy{}", event.xid(), event.deviceUuid(), cause.recoverable() ? " (recoverable)" : "");
        state.markFatalXid(event.deviceUuid(), event.xid(), cause);
    }

    /** Stops the watcher thread and frees the event set (waits up to about one poll period). */
    @Override
    public void close() {
        watcher.close();
    }
}
