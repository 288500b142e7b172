package io.vgpu.deviceplugin;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vgpu.deviceplugin.config.ConfigurationException;
import io.vgpu.deviceplugin.config.DeviceConfigFile;
import io.vgpu.deviceplugin.config.DevicePluginConfig;
import io.vgpu.deviceplugin.config.NodeFeatures;
import io.vgpu.deviceplugin.config.NodeConfigFile;
import io.vgpu.deviceplugin.core.allocate.AllocatePlanner;
import io.vgpu.deviceplugin.core.allocate.AllocateSettings;
import io.vgpu.deviceplugin.core.allocate.AllocationService;
import io.vgpu.deviceplugin.core.allocate.CdiSettings;
import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.deviceplugin.core.pending.LockExpiry;
import io.vgpu.deviceplugin.core.mig.MigAllowlist;
import io.vgpu.deviceplugin.core.pending.NodeLockReleaser;
import io.vgpu.deviceplugin.core.register.NodeOverrides;
import io.vgpu.deviceplugin.core.register.NodeSettings;
import io.vgpu.deviceplugin.core.register.NvidiaSettings;
import io.vgpu.deviceplugin.core.advertise.PluginOptions;
import io.vgpu.deviceplugin.core.register.RegisterPublisher;
import io.vgpu.deviceplugin.core.register.RegisterSettings;
import io.vgpu.deviceplugin.core.register.TopologyScores;
import io.vgpu.deviceplugin.core.port.ClusterAccess;
import io.vgpu.deviceplugin.core.port.NodeEvents;
import io.vgpu.deviceplugin.core.port.PreparedClaims;
import io.vgpu.deviceplugin.devices.DeviceSource;
import io.vgpu.deviceplugin.devices.DeviceState;
import io.vgpu.deviceplugin.devices.FakeGpuSource;
import io.vgpu.deviceplugin.devices.NvmlDeviceSource;
import io.vgpu.deviceplugin.devices.HealthReporter;
import io.vgpu.deviceplugin.devices.XidHealthWatcher;
import io.vgpu.deviceplugin.dra.DraComponent;
import io.vgpu.deviceplugin.dra.kubelet.DraKubeletPlugin;
import io.vgpu.deviceplugin.dra.slice.NotOfferedMetrics;
import io.vgpu.deviceplugin.dra.slice.SlicePublisher;
import io.vgpu.deviceplugin.grpc.DevicePluginEndpoint;
import io.vgpu.deviceplugin.grpc.KubeletRegistration;
import io.vgpu.deviceplugin.host.LocalHostFiles;
import io.vgpu.deviceplugin.kube.FabricClusterAccess;
import io.vgpu.deviceplugin.kube.FabricModeCluster;
import io.vgpu.deviceplugin.kube.FabricNodeEvents;
import io.vgpu.deviceplugin.kube.FabricSliceStore;
import io.vgpu.deviceplugin.kube.KubeNodeWatch;
import io.vgpu.deviceplugin.kube.KubePodDirectory;
import io.vgpu.deviceplugin.mig.DynamicMig;
import io.vgpu.deviceplugin.mig.MigManager;
import io.vgpu.deviceplugin.mig.MigReconcileVerticle;
import io.vgpu.deviceplugin.monitor.MonitorConfig;
import io.vgpu.deviceplugin.mode.ModeController;
import io.vgpu.deviceplugin.mode.ModeSettings;
import io.vgpu.deviceplugin.monitor.VgpuMonitor;
import io.vgpu.hamicore.NativeNvml;
import io.vgpu.hamicore.Nvml;
import io.vgpu.hamicore.NvmlConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The node agent's composition root (STYLE §3): configuration from the environment (fail fast), then
 * the Kubernetes client and the device source (NVML via hamicore-jni, or a fake GPU file), then the
 * services, then what runs in both modes (XID watcher, vGPU monitor, node informer), then the mode
 * controller with device-plugin mode's parts (register loop, kubelet plugin) and DRA mode's components
 * (ResourceSlice publisher, the kubelet DRA plugin), then the shutdown hook.
 */
public final class Main {

    private static final Logger LOG = LoggerFactory.getLogger(Main.class);
    /** HAMi's MIG reconciler period. */
    private static final Duration MIG_RECONCILE_INTERVAL = Duration.ofSeconds(5);

    private Main() {
    }

    /** Runs the agent until the JVM is stopped; exits 2 on bad configuration, 1 when it cannot start. */
    public static void main(String[] args) {
        DevicePluginConfig config;
        try {
            config = DevicePluginConfig.fromEnv(System.getenv());
        } catch (ConfigurationException e) {
            LOG.error(e.getMessage());
            System.exit(2);
            return;
        }
        NodeFeatures features;
        try {
            features = NodeFeatures.fromEnv(System.getenv());
        } catch (ConfigurationException e) {
            LOG.error(e.getMessage());
            System.exit(2);
            return;
        }
        LOG.info("vgpu device plugin starting: {}, {} (node lock expiry {})", config.describe(), features,
                LockExpiry.fromEnv(System.getenv("HAMI_NODELOCK_EXPIRE")));
        Vertx vertx = Vertx.vertx();
        KubernetesClient client;
        DeviceSource source;
        try {
            client = new KubernetesClientBuilder().build();
            source = openSource(config);
        } catch (RuntimeException e) {
            LOG.error("cannot start: {}", e.getMessage(), e);
            vertx.close();
            System.exit(1);
            return;
        }
        NodeAgent agent;
        try {
            agent = start(vertx, config, features, client, source).await(2, TimeUnit.MINUTES);
        } catch (Exception e) {
            LOG.error("cannot start: {}", e.getMessage(), e);
            source.close();
            client.close();
            vertx.close();
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("stopping");
            try {
                agent.close().await(20, TimeUnit.SECONDS);
            } catch (Exception e) {
                LOG.warn("stop did not complete: {}", e.getMessage());
            }
            client.close();
            vertx.close();
        }, "vgpu-shutdown"));
    }

    /** The configured device source; NVML failures (library or driver absent) throw with NVML's message. */
    static DeviceSource openSource(DevicePluginConfig config) {
        if (DevicePluginConfig.SOURCE_FAKE.equals(config.deviceSource())) {
            return new FakeGpuSource(config.fakeGpusFile());
        }
        NvmlConfig nvml = NvmlConfig.defaults().withLibrary(config.nvmlLibrary()).withSysfsRoot(config.sysfsRoot());
        return new NvmlDeviceSource(NativeNvml.open(nvml), "nvml:" + config.nvmlLibrary());
    }

    /**
     * Builds the services and deploys the verticles.
     *
     * @param client the Kubernetes client (closed by the caller)
     * @param source the device source (closed by {@link NodeAgent#close()})
     * @return the running agent; fails on bad device/node config files or a failing first device scan
     */
    static Future<NodeAgent> start(Vertx vertx, DevicePluginConfig config, KubernetesClient client, DeviceSource source) {
        return start(vertx, config, NodeFeatures.defaults(), client, source);
    }

    /** {@link #start(Vertx, DevicePluginConfig, KubernetesClient, DeviceSource)} with optional HAMi features. */
    static Future<NodeAgent> start(Vertx vertx, DevicePluginConfig config, NodeFeatures features, KubernetesClient client,
                                   DeviceSource source) {
        NodeSettings node;
        MigAllowlist allowlist;
        try {
            NvidiaSettings base = DeviceConfigFile.read(config.deviceConfigFile());
            node = NodeConfigFile.read(config.nodeConfigFile())
                    .map(entries -> NodeOverrides.apply(base, entries, config.nodeName()))
                    .orElseGet(() -> {
                        LOG.warn("no per-node config {}: device config as is, operating mode empty (as HAMi)", config.nodeConfigFile());
                        return NodeOverrides.withoutNodeConfig(base);
                    });
            allowlist = AllocateSettings.MODE_MIG.equals(node.operatingMode())
                    ? DeviceConfigFile.readMigAllowlist(config.deviceConfigFile()) : MigAllowlist.EMPTY;
        } catch (RuntimeException e) {
            return Future.failedFuture(e);
        }
        return vertx.executeBlocking(source::scan)
                .compose(scan -> deploy(vertx, config, features, client, source, node, scan, allowlist));
    }

    private static Future<NodeAgent> deploy(Vertx vertx, DevicePluginConfig config, NodeFeatures features,
                                            KubernetesClient client, DeviceSource source, NodeSettings node,
                                            List<GpuFacts> scan, MigAllowlist allowlist) {
        return StaticMigSetup.plan(vertx, features, source, scan, node.filter(), node.operatingMode(),
                        vendorOf(node.nvidia().resourceCountName()))
                .compose(plan -> deploy(vertx, config, features, client, source, node, scan, allowlist, plan));
    }

    private static Future<NodeAgent> deploy(Vertx vertx, DevicePluginConfig config, NodeFeatures features,
                                            KubernetesClient client, DeviceSource source, NodeSettings node,
                                            List<GpuFacts> scan, MigAllowlist allowlist, StaticMigSetup.Plan plan) {
        NvidiaSettings nvidia = node.nvidia();
        DeviceState state = plan.main();
        LOG.info("serving {} GPU(s) as {} × {} devices of {} (mode {}, preferred allocation {})", state.devices().size(),
                state.devices().size(), nvidia.deviceSplitCount(), nvidia.resourceCountName(), node.operatingMode(),
                node.enableGetPreferredAllocation());
        ExecutorService pool = Executors.newFixedThreadPool(4, named("kubernetes-ops"));
        ClusterAccess cluster = new FabricClusterAccess(client, pool, config.kubeTimeout());
        List<GpuFacts> served = scan.stream().filter(g -> state.serves(g.uuid())).toList();
        Future<MigManager> mig = !AllocateSettings.MODE_MIG.equals(node.operatingMode()) ? Future.succeededFuture()
                : DynamicMig.start(source, served, allowlist, new LocalHostFiles(config.hostRoot(), pool)
                        .resolve(MonitorConfig.DEFAULT_MIG_APPLY_LOCK.toString()), cluster, config.nodeName());
        return mig.compose(manager -> NodeFeatureStarter.topologyScores(vertx, features, source, served, cluster,
                                config.nodeName())
                        .compose(scores -> DevicePluginCdi.write(vertx, config, node.operatingMode(), features.migStrategy(),
                                        served)
                                .compose(libraries -> deploy(vertx, config, features, client, source, node, scan, plan,
                                        pool, cluster, manager, scores, libraries)))
                        .recover(error -> {
                            if (manager != null) {
                                manager.close();
                            }
                            return Future.failedFuture(error);
                        }))
                .recover(error -> {
                    pool.shutdownNow();
                    return Future.failedFuture(error);
                });
    }

    /**
     * @param mig       the dynamic-MIG manager, null outside {@code mig} mode
     * @param scores    GPU pair scores to publish, null for none
     * @param libraries how CDI answers get the driver libraries ({@link DevicePluginCdi})
     */
    private static Future<NodeAgent> deploy(Vertx vertx, DevicePluginConfig config, NodeFeatures features,
                                            KubernetesClient client, DeviceSource source, NodeSettings node,
                                            List<GpuFacts> scan, StaticMigSetup.Plan plan, ExecutorService pool,
                                            ClusterAccess cluster, MigManager mig, TopologyScores.Result scores,
                                            CdiSettings.Libraries libraries) {
        NvidiaSettings nvidia = node.nvidia();
        DeviceState state = plan.main();
        LocalHostFiles host = new LocalHostFiles(config.hostRoot(), pool);
        NodeAgent agent = new NodeAgent(vertx, source, pool);
        if (mig != null) {
            agent.addWatcher(mig);
        }
        KubeNodeWatch nodeWatch = KubeNodeWatch.start(client, config.nodeName());
        agent.addWatcher(nodeWatch);
        NodeEvents events = new FabricNodeEvents(client, config.nodeName(), nodeWatch, pool, config.kubeTimeout(),
                Clock.systemUTC());
        FabricModeCluster modeCluster = new FabricModeCluster(client, config.nodeName(), nvidia.resourceCountName(), pool,
                config.kubeTimeout());
        // the kubelet DRA plugin's checkpoint is the authority on prepared claims (also while the plugin is stopped)
        DraKubeletPlugin draPlugin = DraKubeletPlugin.create(vertx, config, client, node, scan);
        PreparedClaims prepared = draPlugin::preparedClaimUids;
        List<DraComponent> kubeletPlugins = List.of(draPlugin);
        SlicePublisher slices = slicePublisher(vertx, config, client, pool, nodeWatch, events, source, state, node);
        ModeController mode = new ModeController(vertx,
                new ModeSettings(config.nodeName(), config.mode(), config.draEnabled(), config.modeRetry()),
                modeCluster, prepared, nodeWatch, events,
                devicePluginMode(vertx, config, cluster, host, source, plan, node, mig, scores, libraries),
                slices, kubeletPlugins);
        agent.setMode(mode);
        Future<Void> reconciler = mig == null ? Future.succeededFuture() : vertx.deployVerticle(
                        new MigReconcileVerticle(mig, cluster, config.nodeName(), MIG_RECONCILE_INTERVAL))
                .map(id -> {
                    agent.addDeployment(id);
                    return null;
                });
        return reconciler
                .compose(v -> startXidWatcher(vertx, config, features, source, plan.states(), agent))
                .compose(v -> NodeFeatureStarter.health(vertx, features, source, state, cluster, config.nodeName(), agent))
                .compose(v -> deployMonitor(vertx, config, client, source, host, state, slices, agent))
                .compose(v -> mode.start())
                .map(agent)
                .recover(error -> agent.close().transform(ignored -> Future.failedFuture(error)));
    }

    /**
     * Device-plugin mode's parts: the register loop, the kubelet device plugin(s) (a group with the static
     * MIG strategies' extra resources) and the kubelet socket watcher.
     *
     * @param mig       the dynamic-MIG manager, null outside {@code mig} mode
     * @param scores    GPU pair scores to publish, null for none
     * @param libraries how CDI answers get the driver libraries
     */
    private static ModeController.Part devicePluginMode(Vertx vertx, DevicePluginConfig config, ClusterAccess cluster,
                                                        LocalHostFiles host, DeviceSource source, StaticMigSetup.Plan plan,
                                                        NodeSettings node, MigManager mig, TopologyScores.Result scores,
                                                        CdiSettings.Libraries libraries) {
        NvidiaSettings nvidia = node.nvidia();
        DeviceState state = plan.main();
        NodeLockReleaser releaser = new NodeLockReleaser(cluster);
        AllocatePlanner planner = new AllocatePlanner(allocateSettings(config, node, libraries), UUID::randomUUID);
        AllocationService allocations = new AllocationService(config.nodeName(), cluster, host, planner,
                state::inventory, releaser, mig);
        KubeletRegistration registration = config.registerWithKubelet()
                ? new KubeletRegistration(vertx, config.kubeletSocket(), config.kubeletTimeout(), config.pluginSocket(),
                        nvidia.resourceCountName(), PluginOptions.forRegistration(node.enableGetPreferredAllocation()))
                : null;
        Supplier<DevicePluginVerticle> mainPlugin = () -> new DevicePluginVerticle(
                new DevicePluginEndpoint(allocations, state, nvidia.deviceSplitCount(), nvidia.enableNumaTopology()),
                config.pluginSocket(), registration);
        List<Supplier<DevicePluginVerticle>> group = new ArrayList<>(List.of(mainPlugin));
        group.addAll(StaticMigSetup.extraPlugins(vertx, config, plan, cluster, host, planner));
        DevicePluginMode parts = new DevicePluginMode(vertx,
                group.size() == 1 ? mainPlugin : () -> new PluginGroupVerticle(group),
                // a fresh publisher per start: it remembers what it wrote, and leaving the mode removed that
                () -> new NodeRegisterVerticle(source, state, RegisterSettings.of(node),
                        new RegisterPublisher(cluster, config.nodeName()), config.registerInterval(), config.registerRetry(),
                        mig == null ? Map::of : mig::capabilities, scores),
                !plan.states().stream().allMatch(s -> s.devices().isEmpty()),
                config.registerWithKubelet() ? onRestart -> KubeletSocketWatcher.start(config.kubeletSocket(), onRestart) : null,
                config.registerRetry());
        return new ModeController.Part(parts::start, parts::stop);
    }

    /** DRA mode's ResourceSlice publisher: rescans as often as the register loop, retries as it does. */
    private static SlicePublisher slicePublisher(Vertx vertx, DevicePluginConfig config, KubernetesClient client,
                                                 ExecutorService pool, KubeNodeWatch nodeWatch, NodeEvents events,
                                                 DeviceSource source, DeviceState state, NodeSettings node) {
        return new SlicePublisher(vertx, config.nodeName(), new FabricSliceStore(client, pool, config.kubeTimeout()),
                nodeWatch, events, () -> vertx.executeBlocking(source::scan).onSuccess(state::applySourceHealth),
                state, node, config.registerInterval(), config.registerRetry());
    }

    private static Future<Void> startXidWatcher(Vertx vertx, DevicePluginConfig config, NodeFeatures features,
                                                DeviceSource source, List<DeviceState> states, NodeAgent agent) {
        if (!(source instanceof NvmlDeviceSource nvml) || states.stream().allMatch(s -> s.devices().isEmpty())) {
            return Future.succeededFuture();
        }
        return vertx.executeBlocking(() -> XidHealthWatcher.start(nvml.nvml(), states, config.xidPolicy(), config.xidPoll(),
                        features.recovery()))
                .map(watcher -> {
                    watcher.ifPresent(agent::addWatcher);
                    return null;
                });
    }

    /**
     * The vGPU monitor (HAMi's {@code vGPUmonitor}) in this JVM when {@link DevicePluginConfig#monitorEnabled()}:
     * informer-backed pod lookups, the regions under {@code <host root><HOOK_PATH>/vgpu/containers}, host
     * series from the source's NVML handle (none for fake GPUs), {@code /metrics} on
     * {@link DevicePluginConfig#metricsPort()}. The pod caches sync in the background (lookups fail until
     * then, so nothing is deleted); the monitor and the caches stop with {@link NodeAgent#close()}.
     */
    private static Future<Void> deployMonitor(Vertx vertx, DevicePluginConfig config, KubernetesClient client,
                                              DeviceSource source, LocalHostFiles host, DeviceState state,
                                              SlicePublisher slices, NodeAgent agent) {
        if (!config.monitorEnabled()) {
            LOG.info("vGPU monitor disabled (VGPU_MONITOR_ENABLED=false)");
            return Future.succeededFuture();
        }
        VgpuMonitor monitor;
        try {
            KubePodDirectory pods = KubePodDirectory.start(client, config.nodeName());
            agent.addWatcher(pods);
            monitor = VgpuMonitor.create(monitorConfig(config, host), monitorNvml(source), pods, Clock.systemUTC(),
                    new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), config.draPlugin().checkpointFile());
            agent.addWatcher(HealthReporter.metrics(state, monitor.registry(), config.nodeName()));
            NotOfferedMetrics.register(slices, monitor.registry(), config.nodeName());
        } catch (RuntimeException e) {
            return Future.failedFuture(e);
        }
        return vertx.deployVerticle(monitor.verticle())
                .recover(e -> Future.failedFuture(new IllegalStateException("vGPU monitor cannot serve metrics on "
                        + config.metricsBindAddress() + ":" + config.metricsPort() + ": " + e.getMessage(), e)))
                .map(id -> {
                    agent.addDeployment(id);
                    return null;
                });
    }

    /** The monitor's settings: host paths (hook path, MIG apply lock) resolved under the host root. */
    static MonitorConfig monitorConfig(DevicePluginConfig config, LocalHostFiles host) {
        return MonitorConfig.defaults(config.nodeName())
                .withHookPath(host.resolve(config.hookPath()))
                .withMigApplyLock(host.resolve(MonitorConfig.DEFAULT_MIG_APPLY_LOCK.toString()))
                .withLegacyMetrics(config.legacyMetrics())
                .withListen(config.metricsBindAddress(), config.metricsPort())
                .withScanInterval(config.monitorScanInterval())
                .withResyncInterval(config.monitorResyncInterval());
    }

    /** The NVML handle the device source already opened (shared, closed with the source); none for fake GPUs. */
    static Optional<Nvml> monitorNvml(DeviceSource source) {
        return source instanceof NvmlDeviceSource nvml ? Optional.of(nvml.nvml()) : Optional.empty();
    }

    /** {@code nvidia.com} of {@code nvidia.com/gpu}: the prefix of the MIG resources. */
    private static String vendorOf(String resource) {
        int slash = resource.indexOf('/');
        return slash > 0 ? resource.substring(0, slash) : "nvidia.com";
    }

    /** Allocate settings from the process config, the node's effective device config and the CDI libraries decision. */
    static AllocateSettings allocateSettings(DevicePluginConfig config, NodeSettings node, CdiSettings.Libraries libraries) {
        NvidiaSettings n = node.nvidia();
        List<String> additional = new ArrayList<>();
        CdiSettings defaults = CdiSettings.defaults();
        if (config.gdsEnabled()) {
            additional.add(defaults.qualifiedName("gds", "all"));
        }
        if (config.mofedEnabled()) {
            additional.add(defaults.qualifiedName("mofed", "all"));
        }
        if (config.gdrcopyEnabled()) {
            additional.add(defaults.qualifiedName("gdrcopy", "all"));
        }
        return new AllocateSettings(n.resourceCountName(), config.hookPath(), n.deviceMemoryScaling(), n.libCudaLogLevel(),
                n.disableCoreLimit(), config.deviceIdStrategy(), config.deviceListStrategies(),
                node.enableGetPreferredAllocation(), node.operatingMode(), config.libVgpuVersion(), false,
                new CdiSettings(config.cdiAnnotationPrefix(), CdiSettings.DEFAULT_VENDOR, additional, libraries),
                config.imexChannelIds(), config.gdrcopyEnabled(), config.gdsEnabled(), config.mofedEnabled());
    }

    private static ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
