package io.vgpu.simulate;

import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.request.PodRequests;
import io.vgpu.gateway.core.request.RequestDeriver;
import io.vgpu.simulate.report.SimulationReport;
import io.vgpu.state.model.ContainerRequest;
import io.vgpu.state.model.DeviceUsage;
import io.vgpu.state.model.NodeView;
import io.vgpu.state.model.Vendor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/** The measurements both simulation modes report, computed the same way from node views and admitted pods. */
final class Measures {

    private Measures() {
    }

    /**
     * The per-GPU memory an admitted pod asks for (its first GPU container's), in MiB: the memory request, or the
     * percentage of a median card; null when it asks for no NVIDIA GPU.
     */
    static Long perGpuMemory(RequestDeriver requests, PodSpec admitted, long medianCardMiB) {
        PodRequests pr = requests.podRequests(admitted);
        for (int i = 0; i < pr.containers().size(); i++) {
            ContainerRequest r = pr.request(i, Vendor.NVIDIA).orElse(null);
            if (r != null && r.nums() > 0) {
                return r.memreq() > 0 ? r.memreq() : medianCardMiB * r.mempercentagereq() / 100;
            }
        }
        return null;
    }

    /** The median card memory of the cluster, in MiB. */
    static long medianCardMemory(Collection<NodeView> nodes) {
        List<Long> mems = new ArrayList<>();
        nodes.forEach(n -> n.devices().forEach(d -> mems.add((long) d.totalmem())));
        return median(mems);
    }

    static int gpuCount(Collection<NodeView> nodes) {
        return nodes.stream().mapToInt(n -> n.devices().size()).sum();
    }

    /** Granted / total GPU memory ({@code memory}) or SM percent. */
    static double utilisation(Collection<NodeView> nodes, boolean memory) {
        long used = 0;
        long total = 0;
        for (NodeView n : nodes) {
            for (DeviceUsage d : n.devices()) {
                used += memory ? d.usedmem() : d.usedcores();
                total += memory ? d.totalmem() : d.totalcore();
            }
        }
        return total == 0 ? 0 : (double) used / total;
    }

    static long median(List<Long> values) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.get(sorted.size() / 2);
    }

    /** The p50 and p99 of {@code nanos} (sorted in place), in microseconds, labelled {@code what}. */
    static SimulationReport.Latency latency(String what, long[] nanos) {
        Arrays.sort(nanos);
        return new SimulationReport.Latency(what, nanos.length, percentile(nanos, 0.50) / 1e3,
                percentile(nanos, 0.99) / 1e3);
    }

    private static double percentile(long[] sorted, double p) {
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)];
    }
}
