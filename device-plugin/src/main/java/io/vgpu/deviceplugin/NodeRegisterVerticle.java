package io.vgpu.deviceplugin;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.deviceplugin.core.mig.MigCapability;
import io.vgpu.deviceplugin.core.register.NodeRegister;
import io.vgpu.deviceplugin.core.register.RegisterPublisher;
import io.vgpu.deviceplugin.core.register.RegisterSettings;
import io.vgpu.deviceplugin.core.register.TopologyScores;
import io.vgpu.deviceplugin.devices.DeviceSource;
import io.vgpu.deviceplugin.devices.DeviceState;
import io.vgpu.state.model.GpuDevice;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The node registration loop (spec §3.1): scan the devices (on a worker thread), build the register
 * devices with the current health, publish only when the annotation changed; next round after
 * {@code interval}, or {@code retry} after an error.
 *
 * <pre>
 *  tick ─► scan (blocking) ─► apply file health ─► build ─► publish ─ ok ──► wait interval ─► tick
 *                 └──────────────── any error ──────────────────────┴────► wait retry ────► tick
 * </pre>
 */
final class NodeRegisterVerticle extends VerticleBase {

    private static final Logger LOG = LoggerFactory.getLogger(NodeRegisterVerticle.class);

    private final DeviceSource source;
    private final DeviceState state;
    private final RegisterSettings settings;
    private final RegisterPublisher publisher;
    private final Duration interval;
    private final Duration retry;
    private final Supplier<Map<String, MigCapability>> migOffers;
    private final TopologyScores.Result scores;
    private long timer = -1;
    private boolean stopped;

    /**
     * @param interval the period after a successful round (HAMi: 30 s)
     * @param retry    the period after a failed round (HAMi: 5 s)
     */
    public NodeRegisterVerticle(DeviceSource source, DeviceState state, RegisterSettings settings, RegisterPublisher publisher,
                                Duration interval, Duration retry) {
        this(source, state, settings, publisher, interval, retry, Map::of, null);
    }

    /**
     * @param migOffers in dynamic-MIG mode, what each GPU offers (the register's {@code migProfiles})
     * @param scores    the GPU pair scores to publish with the register ({@code ENABLE_TOPOLOGY_SCORE}); null: none
     */
    public NodeRegisterVerticle(DeviceSource source, DeviceState state, RegisterSettings settings, RegisterPublisher publisher,
                                Duration interval, Duration retry, Supplier<Map<String, MigCapability>> migOffers,
                                TopologyScores.Result scores) {
        this.migOffers = Objects.requireNonNull(migOffers, "migOffers");
        this.scores = scores;
        this.source = Objects.requireNonNull(source, "source");
        this.state = Objects.requireNonNull(state, "state");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.publisher = Objects.requireNonNull(publisher, "publisher");
        this.interval = Objects.requireNonNull(interval, "interval");
        this.retry = Objects.requireNonNull(retry, "retry");
    }

    @Override
    public Future<?> start() {
        tick();
        return Future.succeededFuture();
    }

    @Override
    public Future<?> stop() {
        stopped = true;
        vertx.cancelTimer(timer);
        return Future.succeededFuture();
    }

    private void tick() {
        scan().compose(this::publish)
                .onSuccess(result -> schedule(result.outcome() == RegisterPublisher.Outcome.FAILED ? retry : interval))
                .onFailure(error -> {
                    LOG.error("device scan failed, keeping the last registration: {}", error.getMessage());
                    schedule(retry);
                });
    }

    private Future<List<GpuFacts>> scan() {
        return vertx.executeBlocking(source::scan);
    }

    private Future<RegisterPublisher.Result> publish(List<GpuFacts> scan) {
        state.applySourceHealth(scan);
        List<GpuFacts> served = scan.stream().filter(g -> state.serves(g.uuid())).toList();
        NodeRegister.Result register = NodeRegister.build(served, state.health(), settings, migOffers.get());
        if (!register.skipped().isEmpty()) {
            LOG.warn("not registering {}: NVML reports no memory and preConfiguredDeviceMemory is 0", register.skipped());
        }
        if (!register.withoutMig().isEmpty()) {
            LOG.warn("not registering {} in dynamic-MIG mode: no MIG profile of migProfileAllowlist is offered "
                    + "(model not listed, no MIG support, or MIG mode pending a reset)", register.withoutMig());
        }
        String pairScores = scores == null || register.devices().isEmpty() ? ""
                : scores.annotation(register.devices().stream().map(GpuDevice::id).toList());
        return Future.fromCompletionStage(publisher.publish(register.devices(), pairScores), context).onSuccess(result -> {
            switch (result.outcome()) {
                case WRITTEN -> LOG.info("node register annotation written: {}", result.value());
                case FAILED -> LOG.warn("node register annotation not written: {}", result.error());
                case UNCHANGED -> LOG.debug("node register annotation unchanged");
            }
        });
    }

    private void schedule(Duration delay) {
        if (!stopped) {
            timer = vertx.setTimer(Math.max(1, delay.toMillis()), id -> tick());
        }
    }
}
