package io.vgpu.gateway.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.vgpu.gateway.core.draview.DraCard;
import io.vgpu.gateway.core.draview.DraShare;
import io.vgpu.gateway.core.draview.DraSnapshot;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.quota.QuotaBook;
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.MigAllocationsCodec;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.DeviceGrant;
import io.vgpu.state.model.DeviceUsage;
import io.vgpu.state.model.MigAllocation;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.NodeView;
import io.vgpu.state.model.PodCharge;
import io.vgpu.state.model.QuotaLimit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * HAMi's scheduler gauges (spec §13) computed on every scrape from the shared state's local snapshot,
 * each with HAMi's constant label {@code zone="vGPU"}. In a multi-replica install every replica
 * exports only the nodes (and namespaces) whose key it owns, so each series exists exactly once across
 * the cluster and a dashboard can sum without double counting.
 *
 * <p>{@code hami_node_gpu_mig_instance_info} (one series of value 1 per realised dynamic-MIG instance: a
 * {@code hami.io/vgpu-mig-allocations} entry that the device plugin completed with its MIG UUID and
 * instance ids) comes from the pod informer's cache, for live pods on owned nodes, so it too exists once.
 *
 * <p>DRA-mode cards (issue 13 item 3: ResourceSlices of {@code gpu.vgpu.io} and the claims allocated from them) are
 * exported in the same {@code hami_gpu_*}, {@code hami_node_gpu_*} and {@code hami_vgpu_*} families with one more
 * label, {@code mode="dra"} (and {@code claim} on the per-pod series), by the replica that owns the node's key: a
 * dashboard's sums include both modes, {@code mode="dra"} selects DRA shares and {@code mode=""} the HAMi ones,
 * whose label sets stay exactly HAMi's.
 *
 * <p>Runs on the scraping thread; reads local snapshots only (no network). Thread-safe.
 */
public final class HamiSchedulerCollector implements MultiCollector {

    private static final double MIB = 1024.0 * 1024.0;
    private static final String ZONE = "vGPU";
    private static final String MODE = "mode";
    private static final String DRA = "dra";

    private final ClusterState state;
    private final QuotaBook quotas;
    private final Supplier<Collection<ObservedPod>> pods;
    private final Supplier<DraSnapshot> dra;

    /**
     * @param state  the shared cluster state (its local snapshot)
     * @param quotas the namespace quota book
     */
    public HamiSchedulerCollector(ClusterState state, QuotaBook quotas) {
        this(state, quotas, List::of);
    }

    /**
     * @param pods the pod informer's cache (MIG instances are read from its annotations)
     */
    public HamiSchedulerCollector(ClusterState state, QuotaBook quotas, Supplier<Collection<ObservedPod>> pods) {
        this(state, quotas, pods, () -> DraSnapshot.EMPTY);
    }

    /**
     * @param dra the DRA-mode cards and their shares (issue 13 item 3): exported in the same families, each series
     *            with the extra label {@code mode="dra"}; device-plugin series keep HAMi's exact label sets
     */
    public HamiSchedulerCollector(ClusterState state, QuotaBook quotas, Supplier<Collection<ObservedPod>> pods,
                                  Supplier<DraSnapshot> dra) {
        this.state = state;
        this.quotas = quotas;
        this.pods = pods;
        this.dra = dra;
    }

    @Override
    public MetricSnapshots collect() {
        Map<String, Family> families = new LinkedHashMap<>();
        for (NodeView node : state.nodes()) {
            if (!state.ownsNode(node.name())) {
                continue;
            }
            for (DeviceUsage d : node.devices()) {
                device(families, node.name(), d);
            }
            NodeState ns = state.nodeState(node.name());
            if (ns != null) {
                ns.charges().forEach((uid, charge) -> pod(families, node.name(), charge));
            }
        }
        draCards(families);
        migInstances(families);
        quotas.entries().forEach((namespace, byResource) -> {
            if (state.ownsNode(namespace)) {
                byResource.forEach((resource, q) -> quota(families, namespace, resource, q));
            }
        });
        MetricSnapshots.Builder out = MetricSnapshots.builder();
        families.values().forEach(f -> out.metricSnapshot(f.snapshot()));
        return out.build();
    }

    private static void device(Map<String, Family> f, String node, DeviceUsage d, String... mode) {
        String idx = Integer.toString(d.index());
        add(f, "hami_gpu_memory_limit_bytes", "Device memory limit for a certain GPU", d.totalmem() * MIB,
                labels(mode, "node", node, "device_uuid", d.id(), "device_index", idx, "device_type", d.type()));
        add(f, "hami_gpu_core_limit_ratio", "Device core limit for a certain GPU", d.totalcore(),
                labels(mode, "node", node, "device_uuid", d.id(), "device_index", idx, "device_type", d.type()));
        add(f, "hami_gpu_memory_allocated_bytes", "Device memory allocated for a certain GPU", d.usedmem() * MIB,
                labels(mode, "node", node, "device_uuid", d.id(), "device_index", idx, "device_cores",
                Integer.toString(d.totalcore()), "device_type", d.type()));
        add(f, "hami_gpu_shared_count", "Number of containers sharing this GPU", d.used(),
                labels(mode, "node", node, "device_uuid", d.id(), "device_index", idx, "device_type", d.type()));
        add(f, "hami_gpu_core_allocated_ratio", "Device core allocated for a certain GPU", d.usedcores(),
                labels(mode, "node", node, "device_uuid", d.id(), "device_index", idx, "device_type", d.type()));
        add(f, "hami_node_gpu_overview", "GPU overview on a certain node", d.usedmem() * MIB,
                labels(mode, "node", node, "device_uuid", d.id(), "device_index", idx, "device_cores",
                Integer.toString(d.totalcore()), "device_memory_limit", Integer.toString(d.totalmem()),
                "device_type", d.type()));
        if (d.totalmem() > 0) {
            add(f, "hami_node_gpu_memory_allocated_ratio", "GPU Memory Allocated Percentage on a certain GPU",
                    (double) d.usedmem() / d.totalmem(), labels(mode, "node", node, "device_uuid", d.id(), "device_index", idx));
        }
    }

    /** DRA-mode cards of owned nodes (the node name is the key, as for device-plugin nodes): exported once too. */
    private void draCards(Map<String, Family> f) {
        for (DraCard card : dra.get().cards()) {
            if (!state.ownsNode(card.node())) {
                continue;
            }
            device(f, card.node(), card.usage(), MODE, DRA);
            for (DraShare share : card.shares()) {
                for (String pod : share.pods()) {
                    add(f, "hami_vgpu_memory_allocated_bytes", "vGPU memory allocated from a container",
                            share.memoryMiB() * MIB, "namespace", share.namespace(), "node", card.node(), "pod", pod,
                            "container_index", "0", "device_uuid", card.uuid(), "claim", share.claim(), MODE, DRA);
                    add(f, "hami_vgpu_core_allocated_ratio", "vGPU core allocated from a container", share.cores(),
                            "namespace", share.namespace(), "node", card.node(), "pod", pod, "container_index", "0",
                            "device_uuid", card.uuid(), "claim", share.claim(), MODE, DRA);
                }
            }
        }
    }

    private static String[] labels(String[] extra, String... labels) {
        if (extra.length == 0) {
            return labels;
        }
        String[] all = Arrays.copyOf(labels, labels.length + extra.length);
        System.arraycopy(extra, 0, all, labels.length, extra.length);
        return all;
    }

    /** Per pod: its collapsed charge (HAMi's container_index is the index in the collapsed list: 0). */
    private static void pod(Map<String, Family> f, String node, PodCharge charge) {
        for (DeviceGrant g : charge.allocation().grants()) {
            add(f, "hami_vgpu_memory_allocated_bytes", "vGPU memory allocated from a container", g.usedmem() * MIB,
                    "namespace", charge.podNamespace(), "node", node, "pod", charge.podName(), "container_index", "0",
                    "device_uuid", g.uuid());
            add(f, "hami_vgpu_core_allocated_ratio", "vGPU core allocated from a container", g.usedcores(),
                    "namespace", charge.podNamespace(), "node", node, "pod", charge.podName(), "container_index", "0",
                    "device_uuid", g.uuid());
        }
    }

    /** One series per realised MIG instance of a live pod on a node this replica owns. */
    private void migInstances(Map<String, Family> f) {
        for (ObservedPod pod : pods.get()) {
            String node = pod.boundNode();
            String annotation = pod.spec().annotation(HamiAnnotations.MIG_ALLOCATIONS);
            if (annotation == null || node.isEmpty() || pod.finished() || pod.terminating() || !state.ownsNode(node)) {
                continue;
            }
            Decoded<List<MigAllocation>> allocations = MigAllocationsCodec.decode(annotation);
            if (!allocations.isOk()) {
                continue; // HAMi's informer ignores such a pod too
            }
            NodeView view = state.node(node);
            for (MigAllocation a : allocations.value()) {
                if (!a.realized()) {
                    continue;
                }
                String index = view == null ? "" : view.devices().stream().filter(d -> d.id().equals(a.gpuUuid()))
                        .findFirst().map(d -> Integer.toString(d.index())).orElse("");
                add(f, "hami_node_gpu_mig_instance_info", "Realized MIG instance identity and scheduler placement", 1,
                        "node", node, "device_uuid", a.gpuUuid(), "device_index", index, "mig_uuid", a.migUuid(),
                        "profile", a.profile(), "gpu_instance_id", Long.toString(a.gpuInstanceId().getAsLong()),
                        "compute_instance_id", Long.toString(a.computeInstanceId().getAsLong()),
                        "placement_start", Integer.toString(a.placementStart()),
                        "placement_size", Integer.toString(a.placementSize()));
            }
        }
    }

    private static void quota(Map<String, Family> f, String namespace, String resource, QuotaLimit q) {
        add(f, "hami_resource_quota_used", "resourcequota usage for a certain device", q.used(),
                "namespace", namespace, "quota_name", resource, "limit", Long.toString(q.limit()));
        if (q.limitSet()) {
            add(f, "hami_resource_quota_limit", "resourcequota limit for a certain device", q.limit(),
                    "namespace", namespace, "quota_name", resource);
        }
    }

    private static void add(Map<String, Family> families, String name, String help, double value, String... labels) {
        families.computeIfAbsent(name, n -> new Family(n, help)).add(value, labels);
    }

    /** One gauge family; a repeated label set keeps its first value (one bad node must not fail the scrape). */
    private static final class Family {
        private final String name;
        private final String help;
        private final List<GaugeDataPointSnapshot> points = new ArrayList<>();
        private final Set<Labels> seen = new HashSet<>();

        Family(String name, String help) {
            this.name = name;
            this.help = help;
        }

        void add(double value, String... labels) {
            Labels.Builder b = Labels.builder();
            for (int i = 0; i + 1 < labels.length; i += 2) {
                b.label(labels[i], labels[i + 1]);
            }
            b.label("zone", ZONE);
            Labels built = b.build();
            if (seen.add(built)) {
                points.add(GaugeDataPointSnapshot.builder().labels(built).value(value).build());
            }
        }

        GaugeSnapshot snapshot() {
            GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(name).help(help);
            points.forEach(b::dataPoint);
            return b.build();
        }
    }
}
