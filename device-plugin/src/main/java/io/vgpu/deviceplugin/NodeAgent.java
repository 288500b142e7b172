package io.vgpu.deviceplugin;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VerticleBase;
import io.vgpu.deviceplugin.devices.DeviceSource;
import io.vgpu.deviceplugin.mode.ModeController;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;

/**
 * The running node agent built by {@link Main}: what runs in both modes (the XID watcher, the vGPU monitor
 * with its pod caches, the node informer) and the {@link ModeController}, which runs either device-plugin
 * mode's parts or DRA mode's components.
 *
 * <pre>
 *  close ─► stop the mode's parts ─► stop watchers ─► undeploy the monitor ─► close source and pool
 * </pre>
 */
final class NodeAgent {

    private static final Logger LOG = LoggerFactory.getLogger(NodeAgent.class);

    private final Vertx vertx;
    private final DeviceSource source;
    private final ExecutorService pool;
    private final List<AutoCloseable> watchers = new ArrayList<>();
    private final List<String> deployments = new ArrayList<>();
    private ModeController mode;
    private boolean closed;

    NodeAgent(Vertx vertx, DeviceSource source, ExecutorService pool) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.source = Objects.requireNonNull(source, "source");
        this.pool = Objects.requireNonNull(pool, "pool");
    }

    /** Keeps a deployment to undeploy at close. */
    synchronized void addDeployment(String id) {
        deployments.add(id);
    }

    /** Keeps a watcher (XID watcher, informer caches) to close at close. */
    synchronized void addWatcher(AutoCloseable watcher) {
        watchers.add(watcher);
    }

    /** The mode controller, stopped first at close. */
    synchronized void setMode(ModeController controller) {
        this.mode = controller;
    }

    /** The mode controller, or null before it is set. */
    synchronized ModeController mode() {
        return mode;
    }

    /** Stops everything; idempotent. */
    Future<Void> close() {
        ModeController m;
        synchronized (this) {
            if (closed) {
                return Future.succeededFuture();
            }
            closed = true;
            m = mode;
        }
        Future<Void> modeStopped = m == null ? Future.succeededFuture() : m.close();
        return modeStopped.recover(e -> Future.succeededFuture()).compose(v -> {
            List<AutoCloseable> w;
            List<String> d;
            synchronized (this) {
                w = List.copyOf(watchers);
                d = List.copyOf(deployments);
            }
            for (AutoCloseable watcher : w) {
                try {
                    watcher.close();
                } catch (Exception e) {
                    LOG.debug("closing {} failed", watcher, e);
                }
            }
            List<Future<Void>> undeploys = new ArrayList<>();
            d.forEach(id -> undeploys.add(vertx.undeploy(id).recover(e -> Future.succeededFuture())));
            return Future.join(undeploys).<Void>mapEmpty();
        }).eventually(() -> {
            source.close();
            pool.shutdownNow();
            return Future.succeededFuture();
        });
    }
}
