package io.vgpu.deviceplugin;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vgpu.deviceplugin.config.ConfigurationException;
import io.vgpu.deviceplugin.config.DevicePluginConfig;
import io.vgpu.deviceplugin.config.NodeFeatures;
import io.vgpu.deviceplugin.core.allocate.AllocatePlanner;
import io.vgpu.deviceplugin.core.allocate.AllocationService;
import io.vgpu.deviceplugin.core.advertise.DeviceFilter;
import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.deviceplugin.core.mig.MigDeviceFacts;
import io.vgpu.deviceplugin.core.mig.MigStrategy;
import io.vgpu.deviceplugin.core.pending.NodeLockReleaser;
import io.vgpu.deviceplugin.core.outcome.Outcome;
import io.vgpu.deviceplugin.core.advertise.PluginOptions;
import io.vgpu.deviceplugin.core.advertise.StaticMigLayout;
import io.vgpu.deviceplugin.core.port.ClusterAccess;
import io.vgpu.deviceplugin.core.port.HostFiles;
import io.vgpu.deviceplugin.devices.DeviceSource;
import io.vgpu.deviceplugin.devices.DeviceState;
import io.vgpu.deviceplugin.devices.NvmlDeviceSource;
import io.vgpu.deviceplugin.devices.StaticMigDiscovery;
import io.vgpu.deviceplugin.grpc.DevicePluginEndpoint;
import io.vgpu.deviceplugin.grpc.KubeletRegistration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The device sets of NVIDIA's static MIG strategies ({@link NodeFeatures#migStrategy()}): which devices the
 * main resource advertises, and for {@code mixed} the extra {@code nvidia.com/mig-<profile>} plugins, each
 * on its own socket, answering through the pass-through branch without any HAMi pod.
 */
final class StaticMigSetup {

    private static final Logger LOG = LoggerFactory.getLogger(StaticMigSetup.class);

    private StaticMigSetup() {
    }

    /**
     * The devices of one extra resource.
     *
     * @param resource e.g. {@code nvidia.com/mig-1g.5gb}
     * @param state    its MIG devices
     */
    record Extra(String resource, DeviceState state) {
    }

    /**
     * What the node serves.
     *
     * @param main   the main resource's devices
     * @param extras the {@code mixed} strategy's MIG resources
     */
    record Plan(DeviceState main, List<Extra> extras) {

        /** Every device set, the main one first (for the XID watcher). */
        List<DeviceState> states() {
            List<DeviceState> all = new ArrayList<>(List.of(main));
            extras.forEach(e -> all.add(e.state()));
            return all;
        }
    }

    /** Discovers the MIG devices (on a worker) and lays them out; {@code none} is the plain device set. */
    static Future<Plan> plan(Vertx vertx, NodeFeatures features, DeviceSource source, List<GpuFacts> scan,
                             DeviceFilter filter, String operatingMode, String vendor) {
        MigStrategy strategy = features.migStrategy();
        if (strategy == MigStrategy.NONE) {
            return Future.succeededFuture(new Plan(DeviceState.of(scan, filter), List.of()));
        }
        if ("mig".equals(operatingMode)) {
            return Future.failedFuture(new ConfigurationException("mig-strategy " + strategy.name().toLowerCase()
                    + " and operatingmode mig (dynamic MIG) exclude each other: choose one"));
        }
        if (!(source instanceof NvmlDeviceSource nvml)) {
            return Future.failedFuture(new ConfigurationException("mig-strategy " + strategy.name().toLowerCase()
                    + " reads MIG devices from NVML: it needs VGPU_DEVICE_SOURCE=nvml, not " + source.describe()));
        }
        List<GpuFacts> served = scan.stream().filter(g -> !filter.excludes(g.uuid(), g.index())).toList();
        return vertx.executeBlocking(() -> StaticMigDiscovery.read(nvml.nvml(), served)).compose(found -> {
            Outcome<StaticMigLayout> layout = StaticMigLayout.of(strategy, served, found.migEnabled(), found.devices(), vendor);
            if (!layout.isOk()) {
                return Future.failedFuture(new ConfigurationException(layout.error()));
            }
            StaticMigLayout l = layout.value();
            DeviceState main = strategy == MigStrategy.SINGLE
                    ? DeviceState.ofDevices(StaticMigLayout.physical(l.mainMig()), parents(l.mainMig()))
                    : DeviceState.of(served.stream().filter(g -> l.gpus().contains(g.uuid())).toList(), DeviceFilter.none());
            List<Extra> extras = new ArrayList<>();
            l.byResource().forEach((resource, devices) -> extras.add(new Extra(resource,
                    DeviceState.ofDevices(StaticMigLayout.physical(devices), parents(devices)))));
            LOG.info("mig-strategy {}: main resource {} device(s){}", strategy.name().toLowerCase(), main.devices().size(),
                    extras.isEmpty() ? "" : ", " + extras.stream().map(e -> e.resource() + " × " + e.state().devices().size()).toList());
            return Future.succeededFuture(new Plan(main, extras));
        });
    }

    private static Map<String, String> parents(List<MigDeviceFacts> devices) {
        Map<String, String> out = new LinkedHashMap<>();
        devices.forEach(d -> out.put(d.uuid(), d.parentUuid()));
        return out;
    }

    /** The extra resources' plugins, each registering its resource on its own socket. */
    static List<Supplier<DevicePluginVerticle>> extraPlugins(Vertx vertx, DevicePluginConfig config, Plan plan,
                                                            ClusterAccess cluster, HostFiles host, AllocatePlanner planner) {
        List<Supplier<DevicePluginVerticle>> out = new ArrayList<>();
        for (Extra extra : plan.extras()) {
            String shortName = extra.resource().substring(extra.resource().indexOf('/') + 1);
            Path socket = config.pluginSocket().resolveSibling("vgpu-nvidia-" + shortName + ".sock");
            AllocationService service = AllocationService.passThroughOnly(config.nodeName(), cluster, host, planner,
                    extra.state()::inventory, new NodeLockReleaser(cluster));
            KubeletRegistration registration = config.registerWithKubelet()
                    ? new KubeletRegistration(vertx, config.kubeletSocket(), config.kubeletTimeout(), socket, extra.resource(),
                            PluginOptions.forRegistration(false))
                    : null;
            out.add(() -> new DevicePluginVerticle(new DevicePluginEndpoint(service, extra.state(), 1, false), socket,
                    registration));
        }
        return out;
    }
}
