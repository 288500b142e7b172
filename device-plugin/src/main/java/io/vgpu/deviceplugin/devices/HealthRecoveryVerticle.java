package io.vgpu.deviceplugin.devices;
import io.vgpu.deviceplugin.health.HealthRecovery;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vgpu.deviceplugin.core.advertise.PhysicalDevice;
import io.vgpu.hamicore.Nvml;
import io.vgpu.hamicore.NvmlException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The recovery check ({@link HealthRecovery}): every probe interval, each GPU whose recoverable mark is
 * older than the quiet period is probed through NVML (on a worker: handle, UUID, memory, utilisation
 * answer without error); a sound GPU is advertised healthy again, unless a new XID arrived meanwhile.
 *
 * <pre>
 *  tick ─► marks older than the quiet period ─ none ─────────────────────────► wait ─► tick
 *                       └─► probe (worker) ─► sound ─► recover(uuid, mark) ─┘
 * </pre>
 */
public final class HealthRecoveryVerticle extends VerticleBase {

    private static final Logger LOG = LoggerFactory.getLogger(HealthRecoveryVerticle.class);

    private final DeviceState state;
    private final Nvml nvml;
    private final HealthRecovery recovery;
    private final Clock clock;
    private long timer = -1;
    private boolean stopped;

    public HealthRecoveryVerticle(DeviceState state, Nvml nvml, HealthRecovery recovery, Clock clock) {
        this.state = Objects.requireNonNull(state, "state");
        this.nvml = Objects.requireNonNull(nvml, "nvml");
        this.recovery = Objects.requireNonNull(recovery, "recovery");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public Future<?> start() {
        schedule();
        return Future.succeededFuture();
    }

    @Override
    public Future<?> stop() {
        stopped = true;
        vertx.cancelTimer(timer);
        return Future.succeededFuture();
    }

    private void tick() {
        Instant now = clock.instant();
        Map<String, Instant> due = new LinkedHashMap<>();
        state.recoverable().forEach((uuid, markedAt) -> {
            if (!markedAt.plus(recovery.quietPeriod()).isAfter(now)) {
                due.put(uuid, markedAt);
            }
        });
        if (due.isEmpty()) {
            schedule();
            return;
        }
        List<PhysicalDevice> devices = state.devices();
        vertx.executeBlocking(() -> {
            Map<String, Instant> sound = new LinkedHashMap<>();
            due.forEach((uuid, markedAt) -> devices.stream().filter(d -> d.id().equals(uuid)).findFirst()
                    .filter(d -> sound(d.index(), uuid)).ifPresent(d -> sound.put(uuid, markedAt)));
            return sound;
        }).onComplete(done -> {
            if (done.succeeded()) {
                done.result().forEach((uuid, markedAt) -> {
                    if (state.recover(uuid, markedAt)) {
                        LOG.info("GPU {} is healthy again: NVML answered sound probes and no XID came for {}", uuid,
                                recovery.quietPeriod());
                    }
                });
            }
            schedule();
        });
    }

    /** NVML answers for the GPU without error (NOT_SUPPORTED counts as an answer). BLOCKS. */
    private boolean sound(int index, String uuid) {
        try {
            if (!uuid.equals(nvml.uuid(index))) {
                LOG.warn("GPU {} probe: index {} now reports another UUID; it stays unhealthy", uuid, index);
                return false;
            }
            answers(() -> nvml.memory(index));
            answers(() -> nvml.utilization(index));
            return true;
        } catch (NvmlException e) {
            LOG.info("GPU {} probe failed, it stays unhealthy: {}", uuid, e.getMessage());
            return false;
        }
    }

    private static void answers(Runnable query) {
        try {
            query.run();
        } catch (NvmlException e) {
            if (!e.unsupported()) {
                throw e;
            }
        }
    }

    private void schedule() {
        if (!stopped) {
            timer = vertx.setTimer(Math.max(1, recovery.probeInterval().toMillis()), id -> tick());
        }
    }
}
