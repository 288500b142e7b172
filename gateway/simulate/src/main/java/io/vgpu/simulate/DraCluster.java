package io.vgpu.simulate;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.vgpu.gateway.core.filter.FilterDecider;
import io.vgpu.state.dra.DraNames;
import io.vgpu.state.dra.ResourceSliceCodec;
import io.vgpu.state.dra.SliceBuilder;
import io.vgpu.state.dra.SliceGpu;
import io.vgpu.state.dra.SliceInput;
import io.vgpu.state.dra.SliceObject;
import io.vgpu.state.dra.SliceSettings;
import io.vgpu.state.model.DeviceUsage;
import io.vgpu.state.model.NodeView;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * The synthetic cluster in DRA mode: every node labelled {@code vgpu.io/mode=dra}, its ResourceSlice built by
 * the node agent's own {@link SliceBuilder} from the GPUs its register annotation describes (same UUIDs, memory,
 * split count and NUMA node as extender mode sees), and a usage view per node that allocations update, in the
 * shape the measurements read ({@link NodeView}): memory and cores as {@code consumedCapacity} says, one slot
 * per share. Not thread-safe.
 */
final class DraCluster {

    /** The DeviceClass the chart installs. */
    static final String DEVICE_CLASS = DraNames.DRIVER;
    private static final KubernetesSerialization JSON = new KubernetesSerialization();
    private static final BigDecimal MIB = BigDecimal.valueOf(1L << 20);

    private final Map<String, Node> nodes = new LinkedHashMap<>();
    private final List<ResourceSlice> slices = new ArrayList<>();
    private final Map<String, NodeView> views = new LinkedHashMap<>();

    private DraCluster() {
    }

    /** The DRA-mode twin of {@code synthetic}: nodes without a register annotation are left out. */
    static DraCluster of(List<SyntheticNode> synthetic) {
        DraCluster cluster = new DraCluster();
        for (SyntheticNode n : synthetic) {
            NodeView idle = FilterDecider.idleView(n.name(), n.annotations());
            if (idle == null) {
                continue;
            }
            cluster.nodes.put(n.name(), node(n.name()));
            cluster.slices.add(slice(n.name(), idle.devices()));
            cluster.views.put(n.name(), new NodeView(n.name(), idle.devices(), Map.of(), Map.of()));
        }
        return cluster;
    }

    /** The DeviceClass {@code gpu.vgpu.io}, as the chart's template writes it. */
    static DeviceClass deviceClass() {
        return new DeviceClassBuilder().withNewMetadata().withName(DEVICE_CLASS).endMetadata().withNewSpec()
                .addNewSelector().withNewCel().withExpression("device.driver == '" + DraNames.DRIVER + "'").endCel()
                .endSelector().endSpec().build();
    }

    /** One node's slice, through the node agent's builder and codec. */
    static ResourceSlice slice(String node, List<DeviceUsage> devices) {
        List<SliceGpu> gpus = new ArrayList<>();
        int split = 1;
        for (DeviceUsage d : devices) {
            gpus.add(new SliceGpu(d.id(), d.index(), OptionalInt.of(d.index()), d.type(),
                    OptionalLong.of((long) d.totalmem() << 20), OptionalInt.of(d.numa()),
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), null));
            split = Math.max(split, d.count());
        }
        var content = SliceBuilder.build(SliceInput.of(node, gpus, SliceSettings.defaults().withSplitCount(split)))
                .content();
        SliceObject object = new SliceObject(SliceBuilder.sliceName(node), "", Optional.empty(), content);
        return JSON.unmarshal(ResourceSliceCodec.encode(object), ResourceSlice.class);
    }

    private static Node node(String name) {
        return new NodeBuilder().withNewMetadata().withName(name).addToLabels("kubernetes.io/hostname", name)
                .addToLabels(DraNames.MODE_LABEL, DraNames.MODE_DRA).endMetadata().withNewStatus().endStatus().build();
    }

    Collection<Node> nodes() {
        return nodes.values();
    }

    List<ResourceSlice> slices() {
        return slices;
    }

    /** The usage views, a snapshot. */
    Collection<NodeView> views() {
        return List.copyOf(views.values());
    }

    /** The distinct card sizes of the cluster in MiB, smallest first. */
    List<Long> cardSizesMiB() {
        TreeSet<Long> sizes = new TreeSet<>();
        views.values().forEach(v -> v.devices().forEach(d -> sizes.add((long) d.totalmem())));
        return List.copyOf(sizes);
    }

    /** Memory granted on a node, as a share of its memory (the order binpack and spread sort nodes by). */
    double memoryShare(String node) {
        NodeView v = views.get(node);
        long used = 0;
        long total = 0;
        for (DeviceUsage d : v.devices()) {
            used += d.usedmem();
            total += d.totalmem();
        }
        return total == 0 ? 0 : (double) used / total;
    }

    /** Adds ({@code sign} 1) or removes ({@code -1}) what {@code allocation} consumes to the usage views. */
    void account(AllocationResult allocation, int sign) {
        for (DeviceRequestAllocationResult r : allocation.getDevices().getResults()) {
            NodeView v = views.get(r.getPool());
            if (v == null) {
                continue;
            }
            int minor = DraNames.minorOf(r.getDevice());
            List<DeviceUsage> devices = new ArrayList<>(v.devices());
            for (int i = 0; i < devices.size(); i++) {
                DeviceUsage d = devices.get(i);
                if (d.index() == minor) {
                    var consumed = r.getConsumedCapacity() == null ? Map.<String, Quantity>of()
                            : r.getConsumedCapacity();
                    int mem = consumed.containsKey(SliceBuilder.MEMORY)
                            ? Quantity.getAmountInBytes(consumed.get(SliceBuilder.MEMORY))
                            .divide(MIB, RoundingMode.CEILING).intValueExact() : d.totalmem();
                    int cores = consumed.containsKey(SliceBuilder.CORES)
                            ? Quantity.getAmountInBytes(consumed.get(SliceBuilder.CORES))
                            .intValue() : d.totalcore();
                    devices.set(i, d.plus(sign, sign * mem, sign * cores));
                }
            }
            views.put(v.name(), new NodeView(v.name(), devices, v.annotations(), v.pairScores()));
        }
    }
}
