package io.vgpu.simulate.dra;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Gathers the pools a node can allocate from, in search order (spec §3.3.1–2): per {@code (driver, pool)}
 * only the slices of the highest generation seen count; a pool is kept when one of those slices targets
 * the node ({@code nodeName}, a matching {@code nodeSelector}, {@code allNodes}, or per-device selection
 * with a device for the node); pools are sorted by driver then pool name, pools with binding conditions
 * last, and their targeting slices by name.
 */
final class PoolGatherer {

    private static final Comparator<Pool> ORDER = Comparator.comparing((Pool p) -> hasBindingConditions(p))
            .thenComparing(Pool::driver).thenComparing(Pool::name);

    private PoolGatherer() {
    }

    static List<Pool> gather(Collection<ResourceSlice> slices, Node node) {
        Map<List<String>, List<ResourceSlice>> newest = new LinkedHashMap<>();
        for (ResourceSlice slice : slices) {
            ResourceSliceSpec spec = slice.getSpec();
            List<String> key = List.of(spec.getDriver(), spec.getPool().getName());
            List<ResourceSlice> current = newest.computeIfAbsent(key, k -> new ArrayList<>());
            long generation = generation(slice);
            if (!current.isEmpty() && generation(current.get(0)) < generation) {
                current.clear();
            }
            if (current.isEmpty() || generation(current.get(0)) == generation) {
                current.add(slice);
            }
        }
        List<Pool> pools = new ArrayList<>();
        for (Map.Entry<List<String>, List<ResourceSlice>> e : newest.entrySet()) {
            List<ResourceSlice> all = e.getValue();
            List<ResourceSlice> targeting = all.stream().filter(s -> targets(s, node))
                    .sorted(Comparator.comparing(s -> s.getMetadata().getName())).toList();
            if (targeting.isEmpty()) {
                continue;
            }
            Long count = all.get(0).getSpec().getPool().getResourceSliceCount();
            boolean incomplete = count != null && all.size() < count;
            pools.add(new Pool(e.getKey().get(0), e.getKey().get(1), generation(all.get(0)), targeting, incomplete,
                    invalidReason(all)));
        }
        pools.sort(ORDER);
        return pools;
    }

    /** Whether {@code device} of {@code slice} may be used on the node (per-device selection aware). */
    static boolean deviceOnNode(ResourceSlice slice, Device device, Node node) {
        if (!Boolean.TRUE.equals(slice.getSpec().getPerDeviceNodeSelection())) {
            return true;
        }
        return NodeSelectors.placedOn(device.getNodeName(), device.getAllNodes(), device.getNodeSelector(), node);
    }

    private static boolean targets(ResourceSlice slice, Node node) {
        ResourceSliceSpec spec = slice.getSpec();
        if (Boolean.TRUE.equals(spec.getPerDeviceNodeSelection())) {
            return Nulls.list(spec.getDevices()).stream().anyMatch(d -> deviceOnNode(slice, d, node));
        }
        return NodeSelectors.placedOn(spec.getNodeName(), spec.getAllNodes(), spec.getNodeSelector(), node);
    }

    private static String invalidReason(List<ResourceSlice> slices) {
        Set<String> names = new HashSet<>();
        for (ResourceSlice slice : slices) {
            for (Device device : Nulls.list(slice.getSpec().getDevices())) {
                if (!names.add(device.getName())) {
                    return "duplicate device name " + device.getName();
                }
            }
        }
        return null;
    }

    private static boolean hasBindingConditions(Pool pool) {
        return pool.slices().stream().flatMap(s -> Nulls.list(s.getSpec().getDevices()).stream())
                .anyMatch(d -> !Nulls.list(d.getBindingConditions()).isEmpty());
    }

    private static long generation(ResourceSlice slice) {
        Long g = slice.getSpec().getPool().getGeneration();
        return g == null ? 0 : g;
    }
}
