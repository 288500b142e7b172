package io.vgpu.deviceplugin.dra.kubelet;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vgpu.deviceplugin.cdi.CdiSpecFiles;
import io.vgpu.deviceplugin.config.DevicePluginConfig;
import io.vgpu.deviceplugin.config.DraPluginSettings;
import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.deviceplugin.core.register.NodeSettings;
import io.vgpu.deviceplugin.dra.DraComponent;
import io.vgpu.deviceplugin.dra.prepare.ClaimPlanner;
import io.vgpu.deviceplugin.dra.prepare.NodeGpu;
import io.vgpu.deviceplugin.dra.prepare.NodeGpus;
import io.vgpu.deviceplugin.dra.prepare.PrepareService;
import io.vgpu.deviceplugin.dra.prepare.PrepareSettings;
import io.vgpu.deviceplugin.dra.prepare.PreparedClaim;
import io.vgpu.deviceplugin.host.LocalHostFiles;
import io.vgpu.state.dra.DraNames;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * DRA mode's kubelet plugin as one {@link DraComponent}: the registration and DRA services
 * ({@link DraPluginVerticle}), NodePrepareResources / NodeUnprepareResources ({@link PrepareService}
 * over fabric8, local files and the checkpoint), for the driver {@value DraNames#DRIVER}.
 *
 * <pre>
 *  start: worker pool ─► load the checkpoint (unreadable: fail) ─► sweep files a crash left for claims
 *         the checkpoint does not know ─► serve dra.sock, then the registration socket
 *  stop:  remove the registration socket (the kubelet deregisters), close dra.sock ─► worker pool down
 *         (prepared claims, their CDI specs and the checkpoint stay: their containers still run)
 * </pre>
 *
 * The mode controller starts and stops it; {@link #start()} after {@link #stop()} starts afresh from
 * the checkpoint. Start and stop are called on one context, never concurrently.
 */
public final class DraKubeletPlugin implements DraComponent {

    private static final Logger LOG = LoggerFactory.getLogger(DraKubeletPlugin.class);
    private static final int WORKERS = 4;
    private static final AtomicInteger COUNTER = new AtomicInteger();

    private final Vertx vertx;
    private final KubernetesClient client;
    private final DraPluginSettings settings;
    private final PrepareSettings prepare;
    private final NodeGpus gpus;
    private final LocalHostFilesFactory hostFiles;
    private final Duration kubeTimeout;
    private ExecutorService workers;
    private PrepareService service;
    private String deployment;

    private DraKubeletPlugin(Vertx vertx, KubernetesClient client, DraPluginSettings settings, PrepareSettings prepare,
                             NodeGpus gpus, LocalHostFilesFactory hostFiles, Duration kubeTimeout) {
        this.vertx = vertx;
        this.client = client;
        this.settings = settings;
        this.prepare = prepare;
        this.gpus = gpus;
        this.hostFiles = hostFiles;
        this.kubeTimeout = kubeTimeout;
    }

    /**
     * The kubelet plugin of this node agent (what {@code Main} adds to the DRA components).
     *
     * @param config the agent's configuration ({@code VGPU_DRA_*}, node name, hook path, host root, API timeout)
     * @param client the Kubernetes client (not closed by the plugin)
     * @param node   the node's effective device settings (filter, scalings, log level, core limit)
     * @param scan   the node's GPUs (the start-up scan)
     */
    public static DraKubeletPlugin create(Vertx vertx, DevicePluginConfig config, KubernetesClient client, NodeSettings node,
                                          List<GpuFacts> scan) {
        Objects.requireNonNull(vertx, "vertx");
        Objects.requireNonNull(client, "client");
        DraPluginSettings settings = config.draPlugin();
        NodeGpus gpus = NodeGpus.of(scan, node);
        return new DraKubeletPlugin(vertx, client, settings, PrepareSettings.of(config.nodeName(), config.hookPath(),
                config.libVgpuVersion(), node, settings.driverLibraries()), gpus,
                executor -> new LocalHostFiles(config.hostRoot(), executor), config.kubeTimeout());
    }

    @Override
    public synchronized Future<Void> start() {
        if (deployment != null) {
            return Future.succeededFuture();
        }
        gpus.leftOut().forEach(why -> LOG.warn("DRA mode does not offer GPU {}", why));
        workers = Executors.newFixedThreadPool(WORKERS, DraKubeletPlugin::worker);
        LocalPreparedFiles files = new LocalPreparedFiles(hostFiles.create(workers), new CdiSpecFiles(settings.cdiDir()),
                settings.staticCdiDirs(), prepare.hookPaths(), workers);
        PrepareService next = new PrepareService(new ClaimPlanner(prepare, gpus), settings.driverLibraries(),
                new KubeClaimSource(client, workers, kubeTimeout), files, new CheckpointFile(settings.checkpointFile(), workers));
        return Future.fromCompletionStage(next.start(), vertx.getOrCreateContext())
                .compose(loaded -> Future.fromCompletionStage(files.sweep(loaded.keySet()), vertx.getOrCreateContext())
                        .map(swept -> {
                            swept.forEach(p -> LOG.info("removed {}: left by a prepare the checkpoint does not record", p));
                            LOG.info("DRA checkpoint {}: {} prepared claim(s); offering {}", settings.checkpointFile(),
                                    loaded.size(), gpus.all().stream().map(g -> g.deviceName() + "=" + g.uuid()).toList());
                            return null;
                        }))
                .compose(v -> vertx.deployVerticle(new DraPluginVerticle(new DraCalls(next), settings.draSocket(),
                        settings.registrationSocket())))
                .map(id -> {
                    synchronized (this) {
                        deployment = id;
                        service = next;
                    }
                    return (Void) null;
                })
                .recover(error -> {
                    shutdownWorkers();
                    return Future.failedFuture(new IllegalStateException("the DRA kubelet plugin cannot start: "
                            + error.getMessage(), error));
                });
    }

    @Override
    public Future<Void> stop() {
        String id;
        synchronized (this) {
            id = deployment;
            deployment = null;
            service = null;
        }
        Future<Void> undeployed = id == null ? Future.succeededFuture() : vertx.undeploy(id).recover(e -> {
            LOG.warn("stopping the DRA kubelet plugin: {}", e.getMessage());
            return Future.succeededFuture();
        });
        return undeployed.eventually(() -> {
            shutdownWorkers();
            return Future.succeededFuture();
        });
    }

    /**
     * The claims prepared on this node, by UID: what the mode controller asks before leaving DRA mode.
     * While the plugin runs, its own record; while it is stopped (e.g. the agent restarted after the
     * label changed), the checkpoint on disk, read on a worker. Fails when the checkpoint exists but
     * cannot be read (then the node must be treated as having prepared claims).
     */
    public Future<Map<String, PreparedClaim>> preparedClaims() {
        PrepareService running;
        synchronized (this) {
            running = service;
        }
        if (running != null) {
            return Future.succeededFuture(running.prepared());
        }
        return vertx.executeBlocking(() -> CheckpointFile.read(settings.checkpointFile()), false);
    }

    /**
     * The UIDs of {@link #preparedClaims()}, in the shape of the mode controller's {@code PreparedClaims}
     * port ({@code draPlugin::preparedClaimUids}). Fails as {@link #preparedClaims()} does.
     */
    public CompletionStage<Set<String>> preparedClaimUids() {
        return preparedClaims().<Set<String>>map(claims -> Set.copyOf(claims.keySet())).toCompletionStage();
    }

    /** The GPUs offered (for logs and tests). */
    List<NodeGpu> offered() {
        return List.copyOf(gpus.all());
    }

    private synchronized void shutdownWorkers() {
        if (workers != null) {
            workers.shutdownNow();
            workers = null;
        }
    }

    private static Thread worker(Runnable r) {
        Thread t = new Thread(r, "dra-kubelet-" + COUNTER.incrementAndGet());
        t.setDaemon(true);
        return t;
    }

    /** Builds the host-file helper on the plugin's worker pool. */
    private interface LocalHostFilesFactory {
        LocalHostFiles create(ExecutorService executor);
    }
}
