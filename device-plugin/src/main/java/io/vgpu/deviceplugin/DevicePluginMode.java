package io.vgpu.deviceplugin;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What runs only in device-plugin mode: the register loop, the kubelet device plugin (redeployed as a
 * whole when kubelet restarts) and the kubelet socket watcher. The mode controller starts it when the node
 * enters device-plugin mode and stops it when the node leaves; stopping it deletes the plugin's socket,
 * which deregisters it from kubelet.
 *
 * <pre>
 *  start ─► register loop ─► deployPlugin ─ ok ───────────────────────► serving + registered
 *                                  └─ fails (kubelet down, socket busy) ─► wait retry ─► deployPlugin
 *  kubelet.sock created ─► undeploy plugin ─► deployPlugin
 *  stop ─► stop watcher ─► undeploy plugin ─► undeploy register loop
 * </pre>
 *
 * Plugin (re)deployments run one at a time.
 */
final class DevicePluginMode {

    private static final Logger LOG = LoggerFactory.getLogger(DevicePluginMode.class);

    /** Starts watching kubelet's socket; the handle stops it. */
    interface KubeletWatch {
        AutoCloseable start(Runnable onKubeletRestart) throws Exception;
    }

    private final Vertx vertx;
    private final Supplier<? extends VerticleBase> plugins;
    private final Supplier<NodeRegisterVerticle> registers;
    private final boolean withPlugin;
    private final KubeletWatch kubelet;
    private final Duration retry;
    private String registerDeployment;
    private String pluginDeployment;
    private AutoCloseable watcher;
    private Future<Void> pluginChain = Future.succeededFuture();
    private long retryTimer = -1;
    private boolean running;

    /**
     * @param withPlugin false when the node has no GPU: HAMi then registers no plugin (the register loop
     *                   still publishes {@code []})
     * @param kubelet    null when the plugin does not register with kubelet (no watcher either)
     */
    DevicePluginMode(Vertx vertx, Supplier<? extends VerticleBase> plugins, Supplier<NodeRegisterVerticle> registers,
                     boolean withPlugin, KubeletWatch kubelet, Duration retry) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.plugins = Objects.requireNonNull(plugins, "plugins");
        this.registers = Objects.requireNonNull(registers, "registers");
        this.withPlugin = withPlugin;
        this.kubelet = kubelet;
        this.retry = Objects.requireNonNull(retry, "retry");
    }

    /** Starts the register loop and the plugin; completes after the plugin's first attempt (failures retry). */
    synchronized Future<Void> start() {
        if (running) {
            return Future.succeededFuture();
        }
        running = true;
        return vertx.deployVerticle(registers.get()).compose(id -> {
            synchronized (this) {
                registerDeployment = id;
            }
            if (!withPlugin) {
                LOG.warn("no GPU found: not registering a device plugin with kubelet");
                return Future.succeededFuture();
            }
            return startPlugin().compose(v -> watchKubelet());
        });
    }

    /** Stops everything {@link #start()} started; idempotent. */
    Future<Void> stop() {
        String register;
        AutoCloseable w;
        synchronized (this) {
            if (!running) {
                return pluginChain;
            }
            running = false;
            vertx.cancelTimer(retryTimer);
            register = registerDeployment;
            registerDeployment = null;
            w = watcher;
            watcher = null;
        }
        if (w != null) {
            try {
                w.close();
            } catch (Exception e) {
                LOG.debug("closing the kubelet watcher failed", e);
            }
        }
        Future<Void> plugin;
        synchronized (this) {
            pluginChain = pluginChain.transform(ignored -> undeployPlugin());
            plugin = pluginChain;
        }
        return plugin.transform(v -> register == null ? Future.<Void>succeededFuture()
                : vertx.undeploy(register).recover(e -> Future.succeededFuture()));
    }

    /** The plugin's current deployment id, or null while none is deployed. */
    synchronized String pluginDeployment() {
        return pluginDeployment;
    }

    synchronized Future<Void> startPlugin() {
        pluginChain = pluginChain.transform(ignored -> deployPlugin());
        return pluginChain;
    }

    /** kubelet restarted: undeploy the plugin and deploy a fresh one (which registers again). */
    synchronized Future<Void> restartPlugin() {
        pluginChain = pluginChain.transform(ignored -> undeployPlugin().transform(v -> deployPlugin()));
        return pluginChain;
    }

    private Future<Void> watchKubelet() {
        if (kubelet == null) {
            return Future.succeededFuture();
        }
        try {
            AutoCloseable w = kubelet.start(() -> vertx.runOnContext(v -> restartPlugin()));
            synchronized (this) {
                if (running) {
                    watcher = w;
                    return Future.succeededFuture();
                }
            }
            w.close();
            return Future.succeededFuture();
        } catch (Exception e) {
            return Future.failedFuture(e);
        }
    }

    private Future<Void> deployPlugin() {
        synchronized (this) {
            if (!running) {
                return Future.succeededFuture();
            }
            vertx.cancelTimer(retryTimer);
        }
        return vertx.deployVerticle(plugins.get())
                .compose(this::deployed)
                .recover(error -> {
                    LOG.error("device plugin start failed, retrying in {}: {}", retry, error.getMessage());
                    synchronized (this) {
                        if (running) {
                            retryTimer = vertx.setTimer(Math.max(1, retry.toMillis()), id -> startPlugin());
                        }
                    }
                    return Future.succeededFuture();
                });
    }

    private Future<Void> deployed(String id) {
        synchronized (this) {
            if (running) {
                pluginDeployment = id;
                return Future.succeededFuture();
            }
        }
        // stopped while it was starting
        return vertx.undeploy(id).recover(e -> Future.succeededFuture());
    }

    private Future<Void> undeployPlugin() {
        String id;
        synchronized (this) {
            id = pluginDeployment;
            pluginDeployment = null;
        }
        return id == null ? Future.succeededFuture() : vertx.undeploy(id).recover(e -> Future.succeededFuture());
    }
}
