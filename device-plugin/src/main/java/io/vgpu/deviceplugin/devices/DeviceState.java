package io.vgpu.deviceplugin.devices;

import io.vgpu.deviceplugin.core.DeviceFilter;
import io.vgpu.deviceplugin.core.DeviceInventory;
import io.vgpu.deviceplugin.core.GpuFacts;
import io.vgpu.deviceplugin.core.PhysicalDevice;
import io.vgpu.state.dra.GpuHealth;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The devices this plugin serves and their health, shared by ListAndWatch, Allocate and the register
 * loop. The device set is fixed at start (as HAMi's resource manager); health changes:
 *
 * <pre>
 *  Healthy ──XID critical error / NVML wait error / file says unhealthy──► Unhealthy
 *  Unhealthy ──file says healthy again (fake source only)────────────────► Healthy
 * </pre>
 *
 * An XID-marked device stays unhealthy until the plugin restarts (HAMi has no way back either). For DRA
 * mode's taints it also remembers which unhealthy devices raised an XID critical error themselves
 * ({@link #markFatalXid}): those are tainted NoExecute, the others NoSchedule ({@link #sliceHealth}).
 * Listeners are called after every change, on the thread that made it; they must not block.
 * Thread-safe.
 */
public final class DeviceState {

    private final List<Consumer<List<PhysicalDevice>>> listeners = new CopyOnWriteArrayList<>();
    private final Set<String> xidUnhealthy = new HashSet<>();
    /** The XID critical error each device raised itself (the first one). */
    private final Map<String, Long> fatalXids = new HashMap<>();
    private Map<String, PhysicalDevice> devices;

    private DeviceState(Map<String, PhysicalDevice> devices) {
        this.devices = devices;
    }

    /** The devices of {@code scan} minus the filtered ones, in NVML index order. */
    public static DeviceState of(List<GpuFacts> scan, DeviceFilter filter) {
        List<GpuFacts> kept = new ArrayList<>(scan.stream().filter(g -> !filter.excludes(g.uuid(), g.index())).toList());
        kept.sort(Comparator.comparingInt(GpuFacts::index));
        Map<String, PhysicalDevice> map = new LinkedHashMap<>();
        for (GpuFacts g : kept) {
            map.put(g.uuid(), new PhysicalDevice(g.uuid(), g.index(), g.healthy(), g.numa()));
        }
        return new DeviceState(map);
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
     * Marks one device unhealthy because it raised XID critical error {@code xid} (sticky; DRA mode
     * evicts its shares); unknown UUIDs are ignored.
     */
    public void markFatalXid(String uuid, long xid) {
        synchronized (this) {
            if (devices.containsKey(uuid)) {
                fatalXids.putIfAbsent(uuid, xid);
            }
        }
        markUnhealthy(uuid);
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

    /** Marks one device unhealthy after an XID (sticky); unknown UUIDs are ignored. */
    public void markUnhealthy(String uuid) {
        List<PhysicalDevice> snapshot;
        synchronized (this) {
            PhysicalDevice d = devices.get(uuid);
            xidUnhealthy.add(uuid);
            if (d == null || !d.healthy()) {
                return;
            }
            devices = replaced(uuid, d.unhealthy());
            snapshot = List.copyOf(devices.values());
        }
        notifyListeners(snapshot);
    }

    /** Marks every device unhealthy (an XID without a device, an NVML wait error). */
    public void markAllUnhealthy() {
        List<String> uuids;
        synchronized (this) {
            uuids = List.copyOf(devices.keySet());
        }
        uuids.forEach(this::markUnhealthy);
    }

    /**
     * Applies a source's own health (a re-read fake GPU file); devices marked by XIDs stay unhealthy.
     */
    public void applySourceHealth(List<GpuFacts> scan) {
        List<PhysicalDevice> snapshot = null;
        synchronized (this) {
            Map<String, PhysicalDevice> next = new LinkedHashMap<>(devices);
            for (GpuFacts g : scan) {
                PhysicalDevice d = next.get(g.uuid());
                boolean healthy = g.healthy() && !xidUnhealthy.contains(g.uuid());
                if (d != null && d.healthy() != healthy) {
                    next.put(g.uuid(), new PhysicalDevice(d.id(), d.index(), healthy, d.numa()));
                }
            }
            if (!next.equals(devices)) {
                devices = next;
                snapshot = List.copyOf(devices.values());
            }
        }
        if (snapshot != null) {
            notifyListeners(snapshot);
        }
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

    private void notifyListeners(List<PhysicalDevice> snapshot) {
        for (Consumer<List<PhysicalDevice>> l : listeners) {
            l.accept(snapshot);
        }
    }
}
