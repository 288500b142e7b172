package io.vgpu.deviceplugin.mig;

import io.vertx.core.Future;
import io.vgpu.deviceplugin.config.ConfigurationException;
import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.deviceplugin.core.mig.MigAllowlist;
import io.vgpu.deviceplugin.core.port.ClusterAccess;
import io.vgpu.deviceplugin.devices.DeviceSource;
import io.vgpu.deviceplugin.devices.NvmlDeviceSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Starts dynamic MIG ({@code operatingmode: mig}) for the agent: the manager over the source's NVML,
 * its start-up reset and adoption against the pods on the node (a failed list resets nothing), and a
 * log of what it did. The caller deploys {@link MigReconcileVerticle} and closes the manager.
 */
public final class DynamicMig {

    private static final Logger LOG = LoggerFactory.getLogger(DynamicMig.class);

    private DynamicMig() {
    }

    /**
     * @param served    the GPUs the plugin serves (filtered devices excluded)
     * @param applyLock HAMi's apply lock file as this process sees it
     * @return the started manager; fails when the devices do not come from NVML
     */
    public static Future<MigManager> start(DeviceSource source, List<GpuFacts> served, MigAllowlist allowlist,
                                           Path applyLock, ClusterAccess cluster, String node) {
        if (!(source instanceof NvmlDeviceSource nvml)) {
            return Future.failedFuture(new ConfigurationException("operatingmode 'mig' (dynamic MIG) creates MIG instances "
                    + "through NVML: it needs VGPU_DEVICE_SOURCE=nvml, not " + source.describe()));
        }
        List<String> unlisted = served.stream().filter(g -> allowlist.profilesFor(g.name()).isEmpty())
                .map(g -> g.name() + " (" + g.uuid() + ")").toList();
        if (!unlisted.isEmpty()) {
            LOG.warn("dynamic MIG: no migProfileAllowlist entry names the model of {}: those GPUs are neither offered nor "
                    + "touched", unlisted);
        }
        MigManager manager = new MigManager(nvml.nvml(), served, allowlist, applyLock);
        return Future.fromCompletionStage(cluster.podsOnNode(node))
                .map(Optional::of)
                .recover(error -> {
                    LOG.warn("dynamic MIG: cannot list the pods on {} ({}): no GPU is reset and nothing is adopted",
                            node, error.getMessage());
                    return Future.succeededFuture(Optional.empty());
                })
                .compose(pods -> Future.fromCompletionStage(manager.startUp(pods)))
                .map(report -> {
                    LOG.info("dynamic MIG started: reset {}, kept {}, adopted {} recorded instance(s); offers {}",
                            report.reset(), report.kept(), report.adopted(), manager.capabilities().keySet());
                    report.problems().forEach(p -> LOG.warn("dynamic MIG: {}", p));
                    return manager;
                })
                .recover(error -> {
                    manager.close();
                    return Future.failedFuture(error);
                });
    }
}
