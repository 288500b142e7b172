package io.vgpu.deviceplugin.mode;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vgpu.deviceplugin.core.mode.AgentMode;
import io.vgpu.deviceplugin.core.mode.SwitchRule;
import io.vgpu.deviceplugin.core.port.ModeCluster;
import io.vgpu.deviceplugin.core.port.NodeEvents;
import io.vgpu.deviceplugin.core.port.NodeInfo;
import io.vgpu.deviceplugin.core.port.NodeWatch;
import io.vgpu.deviceplugin.core.port.PreparedClaims;
import io.vgpu.deviceplugin.dra.DraComponent;
import io.vgpu.deviceplugin.dra.SlicePublication;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.dra.DraNames;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Runs the node in one mode at a time (DESIGN.md §8, issue 12 item 1): device-plugin mode's parts, or DRA
 * mode's components (the kubelet DRA plugin(s), then the slice publisher). The mode is the node label
 * {@code vgpu.io/mode} ({@code dra} = DRA mode), else the agent's own setting ({@link ModeSettings#local()};
 * a DRA mode chosen that way is written to the label, so the gateway sees it). The label is read at start and
 * whenever the node changes.
 *
 * <pre>
 *  start: GET node ─► mode wanted; mode last served (register annotation ⇒ device-plugin, a slice ⇒ DRA)
 *         differs ─► switch check ─ refused ─► serve the last mode, Event, try again every retry period
 *  switch device-plugin → DRA: check ─► stop the device plugin (kubelet drops its devices) ─► check again
 *         ─► remove register + handshake annotations ─► start DRA components
 *  switch DRA → device-plugin: check ─► stop the publisher, delete the slices (the scheduler stops
 *         allocating here) ─► check again ─► stop the kubelet DRA plugin ─► start the device plugin
 *  any refusal on the second check or failure: the stopped side is started again (one undo); nothing is
 *  left half-done, a log line and a Node Event say why, and the switch is tried again later.
 * </pre>
 *
 * The check is {@link SwitchRule} over a live {@link ModeCluster#snapshot}; the second check closes the
 * window in which the old mode's scheduler could still place work. Everything runs on this controller's
 * Vert.x context, one switch at a time.
 */
public final class ModeController {

    private static final Logger LOG = LoggerFactory.getLogger(ModeController.class);

    /** Device-plugin mode's parts as one start/stop pair. */
    public record Part(Supplier<Future<Void>> start, Supplier<Future<Void>> stop) {
    }

    private final Vertx vertx;
    private final Context context;
    private final ModeSettings settings;
    private final ModeCluster cluster;
    private final PreparedClaims prepared;
    private final NodeWatch nodes;
    private final NodeEvents events;
    private final Part devicePlugin;
    private final SlicePublication publisher;
    private final List<DraComponent> kubeletPlugins;

    private volatile AgentMode current;
    private boolean switching;
    private boolean pending;
    private boolean closed;
    private String lastRefusal = "";
    private boolean labelWarned;
    private long timer = -1;
    private AutoCloseable subscription;
    private Future<Void> work = Future.succeededFuture();

    /**
     * @param prepared       the claims prepared on this node (the kubelet plugin's checkpoint)
     * @param devicePlugin   device-plugin mode's parts
     * @param publisher      DRA mode's slice publisher (started last, stopped first)
     * @param kubeletPlugins DRA mode's other components, started in this order before the publisher
     */
    public ModeController(Vertx vertx, ModeSettings settings, ModeCluster cluster, PreparedClaims prepared,
                          NodeWatch nodes, NodeEvents events, Part devicePlugin, SlicePublication publisher,
                          List<DraComponent> kubeletPlugins) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.context = vertx.getOrCreateContext();
        this.settings = Objects.requireNonNull(settings, "settings");
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.prepared = Objects.requireNonNull(prepared, "prepared");
        this.nodes = Objects.requireNonNull(nodes, "nodes");
        this.events = Objects.requireNonNull(events, "events");
        this.devicePlugin = Objects.requireNonNull(devicePlugin, "devicePlugin");
        this.publisher = Objects.requireNonNull(publisher, "publisher");
        this.kubeletPlugins = List.copyOf(kubeletPlugins);
    }

    /** The mode served now; null before start and after close. */
    public AgentMode current() {
        return current;
    }

    /** Enters the wanted mode (or, when a switch is refused, the one served before); then follows the label. */
    public Future<Void> start() {
        return onContext(() -> Future.fromCompletionStage(cluster.node(), context)
                .recover(e -> {
                    LOG.warn("cannot read node {} ({}): starting in {} (the agent's setting) and following the "
                            + "node's label once it can be read", settings.node(), e.getMessage(), settings.local());
                    return Future.succeededFuture(Optional.empty());
                })
                .compose(node -> {
                    AgentMode wanted = node.map(n -> AgentMode.desired(n.labels(), settings.local())).orElse(settings.local());
                    return lastServed(node).compose(last -> last.isPresent() && last.get() != wanted
                            ? firstSwitch(last.get(), wanted) : enter(wanted));
                })
                .onSuccess(v -> {
                    subscription = nodes.subscribe(n -> context.runOnContext(x -> evaluate()));
                    timer = vertx.setPeriodic(Math.max(1, settings.retry().toMillis()), id -> evaluate());
                    evaluate();
                }));
    }

    /** Stops what the current mode runs (the slice stays: kubelet deletes it if no driver comes back); idempotent. */
    public Future<Void> close() {
        return onContext(() -> {
            if (closed) {
                return Future.succeededFuture();
            }
            closed = true;
            vertx.cancelTimer(timer);
            closeQuietly(subscription);
            return work.transform(ar -> {
                AgentMode was = current;
                current = null;
                if (was == AgentMode.DRA) {
                    return stopDra();
                }
                return was == AgentMode.DEVICE_PLUGIN ? devicePlugin.stop().get() : Future.succeededFuture();
            });
        });
    }

    /** The mode the node was served in before this start: register annotation ⇒ device-plugin, a slice ⇒ DRA. */
    private Future<Optional<AgentMode>> lastServed(Optional<NodeInfo> node) {
        if (node.isPresent() && node.get().annotations().containsKey(HamiAnnotations.NODE_NVIDIA_REGISTER)) {
            return Future.succeededFuture(Optional.of(AgentMode.DEVICE_PLUGIN));
        }
        return publisher.anyPublished().map(any -> any ? Optional.of(AgentMode.DRA) : Optional.<AgentMode>empty())
                .recover(e -> Future.succeededFuture(Optional.empty()));
    }

    private Future<Void> firstSwitch(AgentMode last, AgentMode wanted) {
        return blockers(last, wanted).compose(blockers -> {
            if (blockers.isEmpty()) {
                LOG.info("node {} was served in {} and is now wanted in {}", settings.node(), last, wanted);
                return enter(wanted);
            }
            refuse(last, wanted, blockers);
            return enter(last);
        });
    }

    /** Starts a mode from nothing (agent start). DRA that cannot start falls back to device-plugin mode. */
    private Future<Void> enter(AgentMode mode) {
        if (mode == AgentMode.DEVICE_PLUGIN) {
            return devicePlugin.start().get().onSuccess(v -> current = AgentMode.DEVICE_PLUGIN)
                    .compose(v -> publisher.deleteSlices().recover(e -> {
                        LOG.debug("no stale ResourceSlices removed: {}", e.getMessage());
                        return Future.succeededFuture();
                    }));
        }
        if (!settings.draEnabled()) {
            refuse(AgentMode.DEVICE_PLUGIN, AgentMode.DRA, List.of(SwitchRule.DRA_DISABLED));
            return enter(AgentMode.DEVICE_PLUGIN);
        }
        return removeAnnotations().compose(v -> startDra()).onSuccess(v -> current = AgentMode.DRA)
                .recover(e -> {
                    failed(AgentMode.DEVICE_PLUGIN, AgentMode.DRA, e);
                    return enter(AgentMode.DEVICE_PLUGIN);
                });
    }

    /** Re-reads the wanted mode and switches when it differs; one at a time. */
    private void evaluate() {
        if (closed || current == null) {
            return;
        }
        if (switching) {
            pending = true;
            return;
        }
        Optional<NodeInfo> node = nodes.current();
        if (node.isEmpty()) {
            return;
        }
        AgentMode wanted = AgentMode.desired(node.get().labels(), settings.local());
        if (wanted == current) {
            lastRefusal = "";
            labelWhenChosenLocally(node.get());
            return;
        }
        switching = true;
        work = (current == AgentMode.DEVICE_PLUGIN ? toDra() : toDevicePlugin()).onComplete(ar -> {
            switching = false;
            if (ar.failed()) {
                LOG.error("mode switch of node {} failed: {}", settings.node(), ar.cause().getMessage(), ar.cause());
            }
            if (pending) {
                pending = false;
                evaluate();
            }
        });
    }

    private Future<Void> toDra() {
        AgentMode from = AgentMode.DEVICE_PLUGIN;
        AgentMode to = AgentMode.DRA;
        return blockers(from, to).compose(first -> {
            if (!first.isEmpty()) {
                refuse(from, to, first);
                return Future.succeededFuture();
            }
            return devicePlugin.stop().get().compose(v -> blockers(from, to)).compose(second -> {
                if (!second.isEmpty()) {
                    refuse(from, to, second);
                    return devicePlugin.start().get();
                }
                return removeAnnotations().compose(v -> startDra()).map(v -> switched(from, to))
                        .recover(e -> {
                            failed(from, to, e);
                            return devicePlugin.start().get();
                        });
            });
        });
    }

    private Future<Void> toDevicePlugin() {
        AgentMode from = AgentMode.DRA;
        AgentMode to = AgentMode.DEVICE_PLUGIN;
        return blockers(from, to).compose(first -> {
            if (!first.isEmpty()) {
                refuse(from, to, first);
                return Future.succeededFuture();
            }
            Future<Boolean> withdrawn = publisher.stop().compose(v -> publisher.deleteSlices())
                    .compose(v -> blockers(from, to))
                    .compose(second -> {
                        if (second.isEmpty()) {
                            return Future.succeededFuture(true);
                        }
                        refuse(from, to, second);
                        return publisher.start().map(false);
                    }, e -> {
                        failed(from, to, e);
                        return publisher.start().map(false);
                    });
            return withdrawn.compose(go -> go
                    ? stopAll(kubeletPlugins).compose(v -> devicePlugin.start().get()).map(v -> switched(from, to))
                    : Future.succeededFuture());
        });
    }

    private Future<List<String>> blockers(AgentMode from, AgentMode to) {
        return Future.fromCompletionStage(cluster.snapshot(prepared), context)
                .map(s -> SwitchRule.blockers(from, to, s, settings.draEnabled()))
                .recover(e -> Future.succeededFuture(List.of("cannot check the node (" + e.getMessage() + ")")));
    }

    /** The DRA components in order, the publisher last; a failure stops what started and fails. */
    private Future<Void> startDra() {
        List<DraComponent> all = new ArrayList<>(kubeletPlugins);
        all.add(publisher);
        List<DraComponent> started = new ArrayList<>();
        Future<Void> chain = Future.succeededFuture();
        for (DraComponent c : all) {
            chain = chain.compose(v -> c.start().onSuccess(x -> started.add(c)));
        }
        return chain.recover(e -> stopAll(started).compose(v -> publisher.deleteSlices().recover(x -> Future.succeededFuture()))
                .transform(x -> Future.failedFuture(e)));
    }

    /** Publisher first (no more allocations here), then the kubelet plugins. */
    private Future<Void> stopDra() {
        return publisher.stop().transform(ar -> stopAll(kubeletPlugins));
    }

    /** Stops in reverse order; every stop runs, a failing one is logged. Never fails. */
    private static Future<Void> stopAll(List<DraComponent> components) {
        Future<Void> chain = Future.succeededFuture();
        for (int i = components.size() - 1; i >= 0; i--) {
            DraComponent c = components.get(i);
            chain = chain.compose(v -> c.stop().recover(e -> {
                LOG.warn("stopping {} failed: {}", c, e.getMessage());
                return Future.succeededFuture();
            }));
        }
        return chain;
    }

    private Future<Void> removeAnnotations() {
        return Future.fromCompletionStage(cluster.removeDevicePluginAnnotations(), context).recover(e -> {
            LOG.warn("cannot remove the register and handshake annotations of {}: {}", settings.node(), e.getMessage());
            return Future.failedFuture(new IllegalStateException("cannot remove the register annotation: " + e.getMessage(), e));
        });
    }

    /** DRA mode from the agent's own setting on an unlabelled node: the label tells the gateway. */
    private void labelWhenChosenLocally(NodeInfo node) {
        if (current != AgentMode.DRA || node.labels().containsKey(DraNames.MODE_LABEL)) {
            return;
        }
        cluster.labelMode(DraNames.MODE_DRA).whenComplete((ok, e) -> {
            if (e != null && !labelWarned) {
                labelWarned = true;
                LOG.warn("cannot label node {} {}={}: {}", settings.node(), DraNames.MODE_LABEL, DraNames.MODE_DRA, e.getMessage());
            }
        });
    }

    private Void switched(AgentMode from, AgentMode to) {
        current = to;
        lastRefusal = "";
        String message = "node " + settings.node() + " switched from " + from + " to " + to;
        LOG.info(message);
        events.normal("ModeSwitched", message);
        return null;
    }

    private void refuse(AgentMode from, AgentMode to, List<String> blockers) {
        String message = SwitchRule.describe(settings.node(), from, to, blockers);
        if (!message.equals(lastRefusal)) {
            lastRefusal = message;
            LOG.warn(message);
            events.warning("ModeSwitchRefused", message);
        }
    }

    private void failed(AgentMode from, AgentMode to, Throwable e) {
        String message = "switch of node " + settings.node() + " from " + from + " to " + to + " failed and was undone: "
                + e.getMessage();
        LOG.error(message, e);
        events.warning("ModeSwitchFailed", message);
    }

    private <T> Future<T> onContext(Supplier<Future<T>> work) {
        Promise<T> p = Promise.promise();
        context.runOnContext(v -> {
            try {
                work.get().onComplete(p);
            } catch (RuntimeException e) {
                p.fail(e);
            }
        });
        return p.future();
    }

    private static void closeQuietly(AutoCloseable handle) {
        if (handle == null) {
            return;
        }
        try {
            handle.close();
        } catch (Exception e) {
            LOG.debug("closing {} failed", handle, e);
        }
    }
}
