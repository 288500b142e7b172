package io.vgpu.deviceplugin.dra.slice;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.deviceplugin.core.register.NodeSettings;
import io.vgpu.deviceplugin.core.register.SliceInputs;
import io.vgpu.deviceplugin.core.port.NodeEvents;
import io.vgpu.deviceplugin.core.port.NodeInfo;
import io.vgpu.deviceplugin.core.port.NodeWatch;
import io.vgpu.deviceplugin.devices.DeviceState;
import io.vgpu.deviceplugin.dra.SlicePublication;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.dra.DraNames;
import io.vgpu.state.dra.SliceBuild;
import io.vgpu.state.dra.SliceBuilder;
import io.vgpu.state.dra.SliceContent;
import io.vgpu.state.dra.SliceDevice;
import io.vgpu.state.dra.SliceInput;
import io.vgpu.state.dra.SliceObject;
import io.vgpu.state.dra.SliceValidator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Publishes this node's ResourceSlice while the node is in DRA mode (DESIGN.md §8, spec/dra-spec.md §1.1,
 * §4.2 item 5): one slice, pool = node name, owned by the Node, content from the pure
 * {@link SliceBuilder}, checked by the {@link SliceValidator} before anything is written.
 *
 * <pre>
 *  trigger ─► build ─► invalid? ── Event, keep what is published
 *   (start, rescan,    └─► LIST own slices ─► {@link SlicePlan} ─► CREATE/UPDATE ─► read back ─► DELETE extras
 *    health, cordon,                                                 │  taints dropped ─► withdraw instead, again
 *    slice deleted                                                   └─ 409/404 ─► again;  error ─► retry later
 *    or changed by others)
 * </pre>
 *
 * Publications run one at a time on this component's Vert.x context; triggers that arrive meanwhile
 * coalesce into one more. A publication whose input equals the last published one and that no slice
 * event has put in doubt costs no API call. The generation is bumped only when the content changes
 * ({@link SlicePlan}). fabric8 runs behind {@link SliceStore} on its own threads, never on the event loop.
 */
public final class SlicePublisher implements SlicePublication {

    private static final Logger LOG = LoggerFactory.getLogger(SlicePublisher.class);

    private final Vertx vertx;
    private final Context context;
    private final String node;
    private final String name;
    private final SliceStore store;
    private final NodeWatch nodes;
    private final NodeEvents events;
    private final Supplier<Future<List<GpuFacts>>> scan;
    private final DeviceState state;
    private final NodeSettings settings;
    private final Duration rescan;
    private final Duration retry;

    private boolean running;
    private boolean busy;
    private boolean again;
    private boolean dirty = true;
    private Future<Void> current = Future.succeededFuture();
    private List<GpuFacts> lastScan;
    private SliceInput lastInput;
    private SliceContent lastPublished;
    private String lastVersion = "";
    private SliceInput.TaintSupport taints = SliceInput.TaintSupport.TAINT;
    private String reported = "";
    private String reportedLeft = "";
    /** GPUs the last build left out, by cause; read by the metrics off this context. */
    private volatile Map<SliceBuild.Cause, Integer> notOffered = Map.of();
    private boolean warnedSharing;
    private int conflicts;
    private long rescanTimer = -1;
    private long retryTimer = -1;
    private final List<AutoCloseable> handles = new ArrayList<>();

    /**
     * @param scan     one device scan on a worker thread (the source's scan, health applied to {@code state})
     * @param state    served devices and their health
     * @param settings the node's effective settings
     * @param rescan   how often the devices are scanned again
     * @param retry    how soon a failed publication is tried again
     */
    public SlicePublisher(Vertx vertx, String node, SliceStore store, NodeWatch nodes, NodeEvents events,
                          Supplier<Future<List<GpuFacts>>> scan, DeviceState state, NodeSettings settings,
                          Duration rescan, Duration retry) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.context = vertx.getOrCreateContext();
        this.node = Objects.requireNonNull(node, "node");
        this.name = SliceBuilder.sliceName(node);
        this.store = Objects.requireNonNull(store, "store");
        this.nodes = Objects.requireNonNull(nodes, "nodes");
        this.events = Objects.requireNonNull(events, "events");
        this.scan = Objects.requireNonNull(scan, "scan");
        this.state = Objects.requireNonNull(state, "state");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.rescan = Objects.requireNonNull(rescan, "rescan");
        this.retry = Objects.requireNonNull(retry, "retry");
    }

    /** Scans, publishes once (a failure is logged and retried, never fails the start), then follows changes. */
    @Override
    public Future<Void> start() {
        Promise<Void> started = Promise.promise();
        context.runOnContext(v -> {
            if (running) {
                started.complete();
                return;
            }
            running = true;
            dirty = true;
            handles.add(state.subscribe(devices -> trigger()));
            handles.add(nodes.subscribe(n -> trigger()));
            // building the informer loads much of fabric8: not on the event loop
            vertx.executeBlocking(() -> store.watch(node, this::onSliceEvent)).onSuccess(watch -> {
                if (running) {
                    handles.add(watch);
                } else {
                    closeQuietly(watch);
                }
            }).compose(watching -> rescanNow()).compose(scanned -> {
                publish();
                return current;
            }).onComplete(ar -> {
                scheduleRescan();
                started.complete();
            });
        });
        return started.future();
    }

    /** Stops following changes (the slice stays published); waits for a publication in progress. */
    @Override
    public Future<Void> stop() {
        Promise<Void> stopped = Promise.promise();
        context.runOnContext(v -> {
            running = false;
            notOffered = Map.of();
            vertx.cancelTimer(rescanTimer);
            vertx.cancelTimer(retryTimer);
            handles.forEach(SlicePublisher::closeQuietly);
            handles.clear();
            current.onComplete(ar -> stopped.complete());
        });
        return stopped.future();
    }

    /**
     * How many GPUs the last publication left out of the slice for {@code cause}; 0 while the publisher is
     * stopped (the node is not in DRA mode). Safe from any thread.
     */
    public int notOffered(SliceBuild.Cause cause) {
        return notOffered.getOrDefault(cause, 0);
    }

    @Override
    public Future<Void> deleteSlices() {
        return Future.fromCompletionStage(store.list(node), context).compose(listed -> {
            List<Future<Void>> deletes = new ArrayList<>();
            listed.forEach(s -> deletes.add(Future.fromCompletionStage(store.delete(s.name()), context)));
            return Future.all(deletes).<Void>mapEmpty().onSuccess(v -> {
                if (!listed.isEmpty()) {
                    LOG.info("deleted {} ResourceSlice(s) of {} on {}", listed.size(), DraNames.DRIVER, node);
                }
                lastPublished = null;
                lastInput = null;
            });
        });
    }

    @Override
    public Future<Boolean> anyPublished() {
        return Future.fromCompletionStage(store.list(node), context).map(listed -> !listed.isEmpty());
    }

    private void onSliceEvent(SliceStore.Event event) {
        context.runOnContext(v -> {
            if (event.deleted() || !event.resourceVersion().equals(lastVersion)) {
                LOG.debug("slice {} {}: publishing again", event.name(), event.deleted() ? "deleted" : "changed");
                dirty = true;
                trigger();
            }
        });
    }

    private void trigger() {
        context.runOnContext(v -> publish());
    }

    private void publish() {
        if (!running) {
            return;
        }
        if (busy) {
            again = true;
            return;
        }
        busy = true;
        current = publishOnce().onComplete(ar -> {
            busy = false;
            if (again) {
                again = false;
                publish();
            }
        });
    }

    /** Scans the devices (on a worker); a failed scan keeps the last one. Never fails. */
    private Future<Void> rescanNow() {
        return scan.get().onSuccess(facts -> lastScan = facts.stream().filter(g -> state.serves(g.uuid())).toList())
                .onFailure(e -> LOG.warn("device scan failed, keeping the last one: {}", e.getMessage()))
                .<Void>mapEmpty().recover(e -> Future.succeededFuture());
    }

    private void scheduleRescan() {
        if (running) {
            rescanTimer = vertx.setTimer(Math.max(1, rescan.toMillis()), id -> rescanNow().onComplete(ar -> {
                publish();
                scheduleRescan();
            }));
        }
    }

    private Future<Void> publishOnce() {
        if (lastScan == null) {
            return Future.succeededFuture(); // the first scan publishes when it lands
        }
        Optional<NodeInfo> seen = nodes.current();
        if (seen.isEmpty()) {
            LOG.info("node {} not seen yet: publishing its slice when it is", node);
            return retryLater();
        }
        SliceInput input = SliceInputs.of(node, lastScan, state.sliceHealth(), settings,
                seen.get().annotations().get(HamiAnnotations.DEVICE_CORDON), taints);
        if (!dirty && input.equals(lastInput)) {
            return Future.succeededFuture();
        }
        SliceBuild build = SliceBuilder.build(input);
        reportLeft(build);
        List<String> problems = SliceValidator.validate(name, build.content());
        if (!problems.isEmpty()) {
            report("ResourceSliceInvalid", "not publishing the ResourceSlice of " + node
                    + " (the API server would refuse it): " + String.join("; ", problems));
            lastInput = input;
            dirty = false;
            return Future.succeededFuture();
        }
        SliceObject.NodeOwner owner = new SliceObject.NodeOwner(node, seen.get().uid());
        return Future.fromCompletionStage(store.list(node), context)
                .compose(listed -> apply(SlicePlan.decide(name, build.content(), owner, listed, lastPublished), build))
                .onSuccess(v -> {
                    lastInput = input;
                    dirty = false;
                    reported = "";
                    conflicts = 0;
                })
                .recover(this::failed);
    }

    private Future<Void> apply(SlicePlan plan, SliceBuild build) {
        Future<Void> written = plan.write().isEmpty() ? Future.succeededFuture() : Future.fromCompletionStage(
                plan.create() ? store.create(plan.write().get()) : store.update(plan.write().get()), context)
                .map(stored -> readBack(plan.write().get(), stored));
        return written.compose(v -> {
            List<Future<Void>> deletes = new ArrayList<>();
            plan.deletions().forEach(n -> {
                LOG.info("deleting ResourceSlice {}: {} publishes one slice per node", n, DraNames.DRIVER);
                deletes.add(Future.fromCompletionStage(store.delete(n), context));
            });
            return Future.all(deletes).mapEmpty();
        });
    }

    /** Checks what the API server kept; remembers what is published. */
    private Void readBack(SliceObject sent, SliceObject stored) {
        lastVersion = stored.resourceVersion();
        lastPublished = stored.content();
        LOG.info("ResourceSlice {} published: {} device(s), generation {}", stored.name(),
                stored.content().devices().size(), stored.content().pool().generation());
        Map<String, SliceDevice> kept = new HashMap<>();
        stored.content().devices().forEach(d -> kept.put(d.name(), d));
        boolean taintsDropped = false;
        boolean sharingDropped = false;
        for (SliceDevice d : sent.content().devices()) {
            SliceDevice k = kept.get(d.name());
            taintsDropped |= k != null && !d.taints().isEmpty() && k.taints().isEmpty();
            sharingDropped |= k != null && d.allowMultipleAllocations() && !k.allowMultipleAllocations();
        }
        if (taintsDropped && taints == SliceInput.TaintSupport.TAINT) {
            taints = SliceInput.TaintSupport.WITHDRAW;
            events.warning("DeviceTaintsDropped", "the API server dropped the device taints of the ResourceSlice of "
                    + node + " (feature gate DRADeviceTaints off): unhealthy and cordoned GPUs are withdrawn instead");
            LOG.warn("the API server dropped the device taints: withdrawing unhealthy and cordoned GPUs instead");
            dirty = true;
            again = true;
        }
        if (sharingDropped && !warnedSharing) {
            warnedSharing = true;
            events.warning("ConsumableCapacityOff", "the API server dropped allowMultipleAllocations from the "
                    + "ResourceSlice of " + node + ": each GPU can only be allocated whole. DRA mode needs the feature "
                    + "gate DRAConsumableCapacity (on by default from Kubernetes 1.36) on every control-plane component");
            LOG.warn("the API server dropped allowMultipleAllocations: feature gate DRAConsumableCapacity is off");
        }
        return null;
    }

    private Future<Void> failed(Throwable error) {
        dirty = true;
        if ((error instanceof SliceStore.Conflict || error instanceof SliceStore.Gone) && ++conflicts < 3) {
            // someone changed the slice between the list and the write: list again at once
            LOG.info("ResourceSlice of {} changed meanwhile ({}): publishing again", node, error.getMessage());
            again = true;
            return Future.succeededFuture();
        }
        String message = "cannot publish the ResourceSlice of " + node + ": " + error.getMessage();
        if (!message.equals(reported)) {
            LOG.warn("{} (retrying every {})", message, retry);
            reported = message;
        }
        return retryLater();
    }

    private Future<Void> retryLater() {
        vertx.cancelTimer(retryTimer);
        if (running) {
            retryTimer = vertx.setTimer(Math.max(1, retry.toMillis()), id -> {
                dirty = true;
                publish();
            });
        }
        return Future.succeededFuture();
    }

    private void report(String reason, String message) {
        if (!message.equals(reported)) {
            reported = message;
            LOG.error(message);
            events.warning(reason, message);
        }
    }

    private void reportLeft(SliceBuild build) {
        Map<SliceBuild.Cause, Integer> byCause = new EnumMap<>(SliceBuild.Cause.class);
        build.left().forEach(l -> byCause.merge(l.cause(), 1, Integer::sum));
        notOffered = Map.copyOf(byCause);
        String left = build.left().stream().map(l -> l.uuid() + " (" + l.reason() + ")").toList().toString();
        if (!left.equals(reportedLeft)) {
            reportedLeft = left;
            if (!build.left().isEmpty()) {
                LOG.warn("not publishing {} GPU(s) of {}: {}", build.left().size(), node, left);
                events.warning("GpusNotOffered", "DRA mode does not offer " + build.left().size() + " GPU(s) of " + node
                        + ": " + left);
            }
        }
    }

    private static void closeQuietly(AutoCloseable handle) {
        try {
            handle.close();
        } catch (Exception e) {
            LOG.debug("closing {} failed", handle, e);
        }
    }
}
