package io.vgpu.deviceplugin.devices;
import io.vgpu.deviceplugin.health.HealthCause;

import io.vgpu.deviceplugin.core.advertise.DeviceFilter;
import io.vgpu.deviceplugin.core.advertise.DeviceInventory;
import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.deviceplugin.core.advertise.PhysicalDevice;
import io.vgpu.state.dra.GpuHealth;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The devices this plugin serves and their health, shared by ListAndWatch, Allocate and the register
 * loop. The device set is fixed at start (as HAMi's resource manager); health changes:
 *
 * <pre>
 *  Healthy ──XID critical error / NVML wait error / file says unhealthy──► Unhealthy
 *  Unhealthy ──file says healthy again (fake source only)────────────────► Healthy
 *  Unhealthy (recoverable mark) ──recover(uuid, since) after a quiet period► Healthy
 * </pre>
 *
 * A mark's {@link HealthCause} says whether it may be recovered; a sticky mark (fatal XIDs, and every
 * mark unless recovery is on) stays until the plugin restarts (HAMi has no way back at all). A newer
 * mark replaces an older one; a sticky one is never replaced by a recoverable one. This is the one
 * place the node's GPU health lives: ListAndWatch, the register annotation and DRA's slices read it. For DRA
 * mode's taints it also remembers which unhealthy devices raised an XID critical error themselves
 * ({@link #markFatalXid}): those are tainted NoExecute, the others NoSchedule ({@link #sliceHealth}).
 * Listeners are called after every change, on the thread that made it; they must not block.
 * Thread-safe.
 */
public final class DeviceState {

    private final List<Consumer<List<PhysicalDevice>>> listeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<HealthTransition>> transitionListeners = new CopyOnWriteArrayList<>();
    private final Map<String, Mark> marks = new HashMap<>();
    private final Map<String, Boolean> sourceHealthy = new HashMap<>();
    private final Map<String, List<String>> children = new HashMap<>();
    private final Clock clock;
    /** The XID critical error each device raised itself (the first one), until it recovers. */
    private final Map<String, Long> fatalXids = new HashMap<>();
    private Map<String, PhysicalDevice> devices;

    private DeviceState(Map<String, PhysicalDevice> devices, Clock clock) {
        this.devices = devices;
        this.clock = clock;
        devices.values().forEach(d -> sourceHealthy.put(d.id(), d.healthy()));
    }

    /** The devices of {@code scan} minus the filtered ones, in NVML index order. */
    public static DeviceState of(List<GpuFacts> scan, DeviceFilter filter) {
        return of(scan, filter, Clock.systemUTC());
    }

    /**
     * MIG devices as they are (static MIG strategies): a mark on a GPU's UUID (an XID of the GPU) marks
     * its MIG devices.
     *
     * @param devices the MIG devices, in order
     * @param parents the GPU UUID of each device, by device ID
     */
    public static DeviceState ofDevices(List<PhysicalDevice> devices, Map<String, String> parents) {
        Map<String, PhysicalDevice> map = new LinkedHashMap<>();
        devices.forEach(d -> map.put(d.id(), d));
        DeviceState state = new DeviceState(map, Clock.systemUTC());
        parents.forEach((child, parent) -> state.children.computeIfAbsent(parent, k -> new ArrayList<>()).add(child));
        return state;
    }

    /** As {@link #of(List, DeviceFilter)}; {@code clock} stamps the unhealthy marks. */
    public static DeviceState of(List<GpuFacts> scan, DeviceFilter filter, Clock clock) {
        List<GpuFacts> kept = new ArrayList<>(scan.stream().filter(g -> !filter.excludes(g.uuid(), g.index())).toList());
        kept.sort(Comparator.comparingInt(GpuFacts::index));
        Map<String, PhysicalDevice> map = new LinkedHashMap<>();
        for (GpuFacts g : kept) {
            map.put(g.uuid(), new PhysicalDevice(g.uuid(), g.index(), g.healthy(), g.numa()));
        }
        return new DeviceState(map, clock);
    }

    /** The devices now, in NVML index order. */
    public synchronized List<PhysicalDevice> devices() {
        return List.copyOf(devices.values());
    }

    /** The devices' UUIDs and indices, for Allocate. */
    public synchronized DeviceInventory inventory() {
        Map<String, Integer> index = new LinkedHashMap<>();
        devices.values().forEach(d -> index.put(d.id(), d.index()));
        return new DeviceInventory(devices.keySet(), index);
    }

    /** Current health by UUID, for the register annotation. */
    public synchronized Map<String, Boolean> health() {
        Map<String, Boolean> out = new LinkedHashMap<>();
        devices.values().forEach(d -> out.put(d.id(), d.healthy()));
        return out;
    }

    /** True when {@code uuid} is served. */
    public synchronized boolean serves(String uuid) {
        return devices.containsKey(uuid);
    }

    /**
     * Marks one device unhealthy because it raised XID critical error {@code xid} (DRA mode evicts its
     * shares while the mark lasts); unknown UUIDs are ignored. A GPU's mark also covers its MIG devices.
     */
    public void markFatalXid(String uuid, long xid, HealthCause cause) {
        synchronized (this) {
            for (String target : children.getOrDefault(uuid, List.of(uuid))) {
                if (devices.containsKey(target)) {
                    fatalXids.putIfAbsent(target, xid);
                }
            }
        }
        markUnhealthy(uuid, cause);
    }

    /**
     * The health DRA mode's slice shows, by UUID: healthy, a fatal XID the device raised, or unhealthy
     * for any other reason.
     */
    public synchronized Map<String, GpuHealth> sliceHealth() {
        Map<String, GpuHealth> out = new LinkedHashMap<>();
        devices.values().forEach(d -> out.put(d.id(), d.healthy() ? GpuHealth.HEALTHY
                : fatalXids.containsKey(d.id()) ? GpuHealth.fatalXid(fatalXids.get(d.id())) : GpuHealth.UNHEALTHY));
        return out;
    }

    /** Marks one device unhealthy for good (sticky); unknown UUIDs are ignored. */
    public void markUnhealthy(String uuid) {
        markUnhealthy(uuid, HealthCause.sticky("unhealthy"));
    }

    /**
     * Marks one device unhealthy for {@code cause}; unknown UUIDs are ignored. A sticky mark is never
     * replaced by a recoverable one; a recoverable mark's time is renewed (the quiet period starts again).
     */
    public void markUnhealthy(String uuid, HealthCause cause) {
        List<String> targets;
        synchronized (this) {
            targets = children.getOrDefault(uuid, List.of(uuid));
        }
        targets.forEach(target -> markOne(target, cause));
    }

    private void markOne(String uuid, HealthCause cause) {
        List<PhysicalDevice> snapshot;
        synchronized (this) {
            PhysicalDevice d = devices.get(uuid);
            Mark previous = marks.get(uuid);
            if (previous == null || previous.cause.recoverable()) {
                marks.put(uuid, new Mark(cause, clock.instant()));
            }
            if (d == null || !d.healthy()) {
                return;
            }
            devices = replaced(uuid, d.unhealthy());
            snapshot = List.copyOf(devices.values());
        }
        notifyListeners(snapshot, new HealthTransition(uuid, false, cause.reason()));
    }

    /** Marks every device unhealthy (an XID without a device, an NVML wait error). */
    public void markAllUnhealthy() {
        markAllUnhealthy(HealthCause.sticky("unhealthy"));
    }

    /** Marks every device unhealthy for {@code cause}. */
    public void markAllUnhealthy(HealthCause cause) {
        List<String> uuids;
        synchronized (this) {
            uuids = List.copyOf(devices.keySet());
        }
        uuids.forEach(uuid -> markUnhealthy(uuid, cause));
    }

    /**
     * The devices whose only mark is recoverable, with the time of that mark, for the recovery check.
     *
     * @return uuid → time of its latest unhealthy mark
     */
    public synchronized Map<String, Instant> recoverable() {
        Map<String, Instant> out = new LinkedHashMap<>();
        for (PhysicalDevice d : devices.values()) {
            Mark m = marks.get(d.id());
            if (m != null && m.cause.recoverable()) {
                out.put(d.id(), m.at);
            }
        }
        return out;
    }

    /**
     * Brings a recoverably marked device back, unless it was marked again after {@code markedAt}
     * (then the new quiet period must pass first) or its mark is sticky.
     *
     * @return true when the device is healthy again (or the source still calls it unhealthy: then it stays so)
     */
    public boolean recover(String uuid, Instant markedAt) {
        List<PhysicalDevice> snapshot;
        synchronized (this) {
            Mark m = marks.get(uuid);
            if (m == null || !m.cause.recoverable() || !m.at.equals(markedAt)) {
                return false;
            }
            marks.remove(uuid);
            fatalXids.remove(uuid);
            PhysicalDevice d = devices.get(uuid);
            if (d == null || d.healthy() || !sourceHealthy.getOrDefault(uuid, true)) {
                return true;
            }
            devices = replaced(uuid, new PhysicalDevice(d.id(), d.index(), true, d.numa()));
            snapshot = List.copyOf(devices.values());
        }
        notifyListeners(snapshot, new HealthTransition(uuid, true, "recovered"));
        return true;
    }

    /**
     * Applies a source's own health (a re-read fake GPU file); marked devices stay unhealthy.
     */
    public void applySourceHealth(List<GpuFacts> scan) {
        List<PhysicalDevice> snapshot = null;
        List<HealthTransition> changes = new ArrayList<>();
        synchronized (this) {
            Map<String, PhysicalDevice> next = new LinkedHashMap<>(devices);
            for (GpuFacts g : scan) {
                PhysicalDevice d = next.get(g.uuid());
                if (d == null) {
                    continue;
                }
                sourceHealthy.put(g.uuid(), g.healthy());
                boolean healthy = g.healthy() && !marks.containsKey(g.uuid());
                if (d.healthy() != healthy) {
                    next.put(g.uuid(), new PhysicalDevice(d.id(), d.index(), healthy, d.numa()));
                    changes.add(new HealthTransition(g.uuid(), healthy, "device source"));
                }
            }
            if (!next.equals(devices)) {
                devices = next;
                snapshot = List.copyOf(devices.values());
            }
        }
        if (snapshot != null) {
            notifyListeners(snapshot, changes.toArray(HealthTransition[]::new));
        }
    }

    /** Calls {@code listener} after every health change of one device; the returned handle removes it. */
    public AutoCloseable subscribeTransitions(Consumer<HealthTransition> listener) {
        transitionListeners.add(listener);
        return () -> transitionListeners.remove(listener);
    }

    /** Calls {@code listener} after every change; the returned handle removes it. */
    public AutoCloseable subscribe(Consumer<List<PhysicalDevice>> listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    private Map<String, PhysicalDevice> replaced(String uuid, PhysicalDevice device) {
        Map<String, PhysicalDevice> next = new LinkedHashMap<>(devices);
        next.put(uuid, device);
        return next;
    }

    private void notifyListeners(List<PhysicalDevice> snapshot, HealthTransition... transitions) {
        for (Consumer<List<PhysicalDevice>> l : listeners) {
            l.accept(snapshot);
        }
        for (HealthTransition t : transitions) {
            for (Consumer<HealthTransition> l : transitionListeners) {
                l.accept(t);
            }
        }
    }

    private record Mark(HealthCause cause, Instant at) {
    }
}
