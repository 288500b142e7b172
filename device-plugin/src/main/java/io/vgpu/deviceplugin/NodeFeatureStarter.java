package io.vgpu.deviceplugin;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vgpu.deviceplugin.config.NodeFeatures;
import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.deviceplugin.core.register.TopologyScores;
import io.vgpu.deviceplugin.core.port.ClusterAccess;
import io.vgpu.deviceplugin.devices.DeviceSource;
import io.vgpu.deviceplugin.devices.DeviceState;
import io.vgpu.deviceplugin.devices.HealthRecoveryVerticle;
import io.vgpu.deviceplugin.devices.HealthReporter;
import io.vgpu.deviceplugin.devices.NvmlDeviceSource;
import io.vgpu.deviceplugin.devices.NvmlTopology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.List;

/**
 * The start steps of {@link Main}'s optional HAMi features ({@link NodeFeatures}): the GPU pair scores and
 * the health reporting and recovery. Kept apart so the composition root stays a list of steps.
 */
final class NodeFeatureStarter {

    private static final Logger LOG = LoggerFactory.getLogger(NodeFeatureStarter.class);

    private NodeFeatureStarter() {
    }

    /**
     * HAMi's GPU pair scores when {@link NodeFeatures#topologyScore()} is on, read once from NVML (the
     * topology does not change while the node runs); null when off or unavailable (logged: the register
     * is then published without them). Asymmetric link data is a Warning Event on the Node.
     */
    static Future<TopologyScores.Result> topologyScores(Vertx vertx, NodeFeatures features, DeviceSource source,
                                                       List<GpuFacts> served, ClusterAccess cluster, String node) {
        if (!features.topologyScore() || served.isEmpty()) {
            return Future.succeededFuture();
        }
        if (!(source instanceof NvmlDeviceSource nvml)) {
            LOG.warn("topology scores need NVML (VGPU_DEVICE_SOURCE=nvml): {} publishes none", source.describe());
            return Future.succeededFuture();
        }
        return vertx.executeBlocking(() -> NvmlTopology.score(nvml.nvml(), served))
                .map(scores -> {
                    if (!scores.asymmetric().isEmpty()) {
                        LOG.warn("asymmetric P2P link data for GPU pairs {}: scored 0", scores.asymmetric());
                        cluster.recordNodeEvent(node, "Warning", "AsymmetricGPUP2PLink", "One or more GPU pairs on this node "
                                + "have asymmetric P2P link data; affected pairs scored 0 (possible NVLink hardware or driver "
                                + "issue): " + scores.asymmetric()).exceptionally(e -> {
                                    LOG.warn("event AsymmetricGPUP2PLink not written: {}", e.getMessage());
                                    return null;
                                });
                    }
                    return scores;
                })
                .recover(error -> {
                    LOG.error("cannot compute GPU topology scores, publishing the register without them: {}", error.getMessage());
                    return Future.succeededFuture();
                });
    }

    /**
     * A Node Event for every health transition, and with {@link NodeFeatures#recovery()} on (and NVML as
     * the source) the recovery check.
     */
    static Future<Void> health(Vertx vertx, NodeFeatures features, DeviceSource source, DeviceState state,
                               ClusterAccess cluster, String node, NodeAgent agent) {
        agent.addWatcher(HealthReporter.events(state, cluster, node));
        if (!features.recovery().enabled()) {
            return Future.succeededFuture();
        }
        if (!(source instanceof NvmlDeviceSource nvml)) {
            LOG.warn("GPU health recovery needs NVML (VGPU_DEVICE_SOURCE=nvml): off for {}", source.describe());
            return Future.succeededFuture();
        }
        LOG.info("GPU health recovery on: non-fatal XIDs recover after {} without XIDs (fatal: {})",
                features.recovery().quietPeriod(), features.recovery().fatal());
        return vertx.deployVerticle(new HealthRecoveryVerticle(state, nvml.nvml(), features.recovery(), Clock.systemUTC()))
                .map(id -> {
                    agent.addDeployment(id);
                    return null;
                });
    }
}
