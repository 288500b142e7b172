package io.vgpu.deviceplugin;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VerticleBase;
import io.vgpu.deviceplugin.devices.DeviceSource;
import io.vgpu.deviceplugin.devices.XidHealthWatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;

/**
 * The running node agent built by {@link Main}: the register loop, the kubelet plugin (redeployed as a
 * whole when kubelet restarts), the kubelet socket watcher, the XID watcher, and the vGPU monitor
 * with its pod caches (a deployment and a watcher).
 *
 * <pre>
 *  deployPlugin ─ ok ──────────────────────────────► serving + registered
 *        └─ fails (kubelet down, socket busy) ─► wait retry ─► deployPlugin
 *  kubelet.sock created ─► undeploy plugin ─► deployPlugin
 *  close ─► stop watchers ─► undeploy everything ─► close source and pool
 * </pre>
 *
 * Plugin (re)deployments run on the agent's Vert.x context, one at a time.
 */
final class NodeAgent {

    private static final Logger LOG = LoggerFactory.getLogger(NodeAgent.class);

    private final Vertx vertx;
    private final Supplier<? extends VerticleBase> plugins;
    private final Duration retry;
    private final DeviceSource source;
    private final ExecutorService pool;
    private final List<AutoCloseable> watchers = new ArrayList<>();
    private final List<String> otherDeployments = new ArrayList<>();
    private String pluginDeployment;
    private Future<Void> pluginChain = Future.succeededFuture();
    private long retryTimer = -1;
    private boolean closed;

    NodeAgent(Vertx vertx, Supplier<? extends VerticleBase> plugins, Duration retry, DeviceSource source, ExecutorService pool) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.plugins = Objects.requireNonNull(plugins, "plugins");
        this.retry = Objects.requireNonNull(retry, "retry");
        this.source = Objects.requireNonNull(source, "source");
        this.pool = Objects.requireNonNull(pool, "pool");
    }

    /** Keeps a deployment to undeploy at close. */
    void addDeployment(String id) {
        otherDeployments.add(id);
    }

    /** Keeps a watcher (file watcher, informer caches) to close at close. */
    void addWatcher(AutoCloseable watcher) {
        watchers.add(watcher);
    }

    /** The XID watcher, when one runs. */
    void addXidWatcher(XidHealthWatcher watcher) {
        watchers.add(watcher);
    }

    /** Deploys the kubelet plugin; on failure retries after the retry period. Completes after the first attempt. */
    synchronized Future<Void> startPlugin() {
        pluginChain = pluginChain.transform(ignored -> deployPlugin());
        return pluginChain;
    }

    /** kubelet restarted: undeploy the plugin and deploy a fresh one (which registers again). */
    synchronized Future<Void> restartPlugin() {
        pluginChain = pluginChain.transform(ignored -> undeployPlugin().transform(v -> deployPlugin()));
        return pluginChain;
    }

    /** The plugin's current deployment id, or null while none is deployed. */
    synchronized String pluginDeployment() {
        return pluginDeployment;
    }

    private Future<Void> deployPlugin() {
        synchronized (this) {
            if (closed) {
                return Future.succeededFuture();
            }
            vertx.cancelTimer(retryTimer);
        }
        return vertx.deployVerticle(plugins.get())
                .map(this::deployed)
                .recover(error -> {
                    LOG.error("device plugin start failed, retrying in {}: {}", retry, error.getMessage());
                    synchronized (this) {
                        if (!closed) {
                            retryTimer = vertx.setTimer(Math.max(1, retry.toMillis()), id -> startPlugin());
                        }
                    }
                    return Future.succeededFuture();
                });
    }

    private synchronized Void deployed(String id) {
        pluginDeployment = id;
        return null;
    }

    private Future<Void> undeployPlugin() {
        String id;
        synchronized (this) {
            id = pluginDeployment;
            pluginDeployment = null;
        }
        return id == null ? Future.succeededFuture() : vertx.undeploy(id).recover(e -> Future.succeededFuture());
    }

    /** Stops everything; idempotent. */
    Future<Void> close() {
        synchronized (this) {
            if (closed) {
                return Future.succeededFuture();
            }
            closed = true;
            vertx.cancelTimer(retryTimer);
        }
        for (AutoCloseable w : watchers) {
            try {
                w.close();
            } catch (Exception e) {
                LOG.debug("closing {} failed", w, e);
            }
        }
        List<Future<Void>> undeploys = new ArrayList<>();
        undeploys.add(pluginChain.transform(v -> undeployPlugin()));
        otherDeployments.forEach(id -> undeploys.add(vertx.undeploy(id).recover(e -> Future.succeededFuture())));
        return Future.join(undeploys).<Void>mapEmpty().eventually(() -> {
            source.close();
            pool.shutdownNow();
            return Future.succeededFuture();
        });
    }
}
