package io.vgpu.state.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Usage accounting (spec §8.2–§8.3): turns a pod's per-container allocation into the charge it holds
 * on each device, and builds a node's usage view from its registered devices and the charges of the
 * pods placed on it. Pure.
 *
 * <p>Collapse rule, per device UUID, with {@code I} init containers (entries with index &lt; I):
 * <pre>
 *   usedmem   = max(max over init entries, sum over app entries)     (same for usedcores)
 *   slots     = max(1 if any init entry, number of app entries, 1)
 * </pre>
 * Init containers run one after another, before the app containers, which run together: the pod's
 * peak is the larger of the biggest init container and all app containers at once.
 */
public final class UsageAccounting {

    private UsageAccounting() {
    }

    /**
     * Collapses one vendor's per-container allocation (init containers first).
     *
     * @param containers one list per container, init containers first
     * @param initCount  number of init containers at the head of {@code containers}
     * @return one grant per device, sorted by UUID
     */
    public static List<DeviceGrant> collapse(List<List<ContainerDevice>> containers, int initCount) {
        Map<String, Acc> byUuid = new TreeMap<>();
        for (int c = 0; c < containers.size(); c++) {
            boolean init = c < initCount;
            for (ContainerDevice d : containers.get(c)) {
                Acc acc = byUuid.computeIfAbsent(d.uuid(), u -> new Acc(d.type()));
                if (init) {
                    acc.anyInit = true;
                    acc.initMem = Math.max(acc.initMem, d.usedmem());
                    acc.initCores = Math.max(acc.initCores, d.usedcores());
                } else {
                    acc.appEntries++;
                    acc.appMem += d.usedmem();
                    acc.appCores += d.usedcores();
                }
            }
        }
        List<DeviceGrant> out = new ArrayList<>(byUuid.size());
        byUuid.forEach((uuid, a) -> out.add(new DeviceGrant(uuid, a.type, Math.max(a.initMem, a.appMem),
                Math.max(a.initCores, a.appCores), Math.max(Math.max(a.anyInit ? 1 : 0, a.appEntries), 1))));
        return out;
    }

    /**
     * The charge once every init container has exited 0 ("init shrink", spec §8.1): app entries only,
     * summed per device, one slot per occurrence.
     */
    public static List<DeviceGrant> appOnly(List<List<ContainerDevice>> containers, int initCount) {
        List<List<ContainerDevice>> apps = containers.subList(Math.min(initCount, containers.size()),
                containers.size());
        return collapse(apps, 0);
    }

    /**
     * Builds the usage view of one node: every registered device starts idle, then each pod's grants
     * on known UUIDs are added ({@code used += max(slots, 1)}). Grants naming unknown UUIDs are
     * ignored (a stale pod must not affect the node).
     *
     * @param devices registered devices, in registration order (kept)
     * @param grants  every tracked pod's collapsed grants on this node
     * @return usage per device, in registration order
     */
    public static List<DeviceUsage> nodeUsage(List<GpuDevice> devices, List<List<DeviceGrant>> grants) {
        Map<String, Integer> position = new TreeMap<>();
        List<DeviceUsage> usage = new ArrayList<>(devices.size());
        for (GpuDevice d : devices) {
            position.putIfAbsent(d.id(), usage.size());
            usage.add(DeviceUsage.idle(d));
        }
        for (List<DeviceGrant> pod : grants) {
            for (DeviceGrant g : pod) {
                Integer at = position.get(g.uuid());
                if (at != null) {
                    usage.set(at, usage.get(at).plus(Math.max(g.slots(), 1), g.usedmem(), g.usedcores()));
                }
            }
        }
        return usage;
    }

    /** Sum of memory over grants. */
    public static long totalMem(List<DeviceGrant> grants) {
        long sum = 0;
        for (DeviceGrant g : grants) {
            sum += g.usedmem();
        }
        return sum;
    }

    /** Sum of cores over grants. */
    public static long totalCores(List<DeviceGrant> grants) {
        long sum = 0;
        for (DeviceGrant g : grants) {
            sum += g.usedcores();
        }
        return sum;
    }

    private static final class Acc {
        final String type;
        boolean anyInit;
        int initMem;
        int initCores;
        int appMem;
        int appCores;
        int appEntries;

        Acc(String type) {
            this.type = type;
        }
    }
}
