package io.vgpu.state.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Re-checks a whole pod allocation against a node's current usage with {@link CapacityRule}, replaying
 * the order in which Fit chose it (spec §9.3): each init container on a fresh copy of the usage, then
 * the app containers cumulatively on one copy. The store's reserve processor calls this against the
 * authoritative node value, so a decision made on a stale view is refused instead of over-committing.
 * Pure and thread-safe.
 */
public final class AllocationCheck {

    private AllocationCheck() {
    }

    /**
     * @param usage      the node's current device usage (without this pod)
     * @param allocation the pod's per-container devices, init containers first
     * @return true when every pick still passes the capacity rule and names a healthy, known device
     */
    public static boolean admits(List<DeviceUsage> usage, PodAllocation allocation) {
        Map<String, DeviceUsage> base = byId(usage);
        List<List<ContainerDevice>> containers = allocation.containers();
        int init = Math.min(allocation.initCount(), containers.size());
        for (int c = 0; c < init; c++) {
            if (!fitsCumulatively(new HashMap<>(base), containers.get(c))) {
                return false;
            }
        }
        Map<String, DeviceUsage> app = new HashMap<>(base);
        for (int c = init; c < containers.size(); c++) {
            if (!fitsCumulatively(app, containers.get(c))) {
                return false;
            }
        }
        return true;
    }

    private static boolean fitsCumulatively(Map<String, DeviceUsage> devices, List<ContainerDevice> picks) {
        for (ContainerDevice pick : picks) {
            DeviceUsage dev = devices.get(pick.uuid());
            if (dev == null || !dev.health() || !CapacityRule.admits(dev, pick.usedmem(), pick.usedcores())) {
                return false;
            }
            devices.put(dev.id(), dev.plus(1, pick.usedmem(), pick.usedcores()));
        }
        return true;
    }

    private static Map<String, DeviceUsage> byId(List<DeviceUsage> usage) {
        Map<String, DeviceUsage> out = new HashMap<>();
        for (DeviceUsage d : usage) {
            out.putIfAbsent(d.id(), d);
        }
        return out;
    }

    /** The usage a node would have after adding {@code grants} (slots, memory, cores per device). */
    public static List<DeviceUsage> plusGrants(List<DeviceUsage> usage, List<DeviceGrant> grants) {
        Map<String, DeviceGrant> byUuid = new HashMap<>();
        grants.forEach(g -> byUuid.put(g.uuid(), g));
        List<DeviceUsage> out = new ArrayList<>(usage.size());
        for (DeviceUsage d : usage) {
            DeviceGrant g = byUuid.get(d.id());
            out.add(g == null ? d : d.plus(Math.max(1, g.slots()), g.usedmem(), g.usedcores()));
        }
        return out;
    }
}
