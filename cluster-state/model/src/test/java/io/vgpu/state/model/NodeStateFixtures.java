package io.vgpu.state.model;

import io.vgpu.state.model.fixtures.GpuFixtures;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builder for {@link NodeState} test values:
 * {@code node("n1").card("g0", 8000).reserved("a", slice("g0", 2000), 500).bound("b", slice("g0", 1000)).build()}.
 */
final class NodeStateFixtures {

    static final String NS = "ns";

    private final String name;
    private boolean registered = true;
    private final List<GpuDevice> devices = new ArrayList<>();
    private final Map<String, PodCharge> charges = new LinkedHashMap<>();
    private NodeLockHolder lock;

    private NodeStateFixtures(String name) {
        this.name = name;
    }

    static NodeStateFixtures node(String name) {
        return new NodeStateFixtures(name);
    }

    /** A registered node n1 with one healthy card g0: 10 slots, 8000 MiB, 100 cores. */
    static NodeState oneCard() {
        return node("n1").card("g0", 8000).build();
    }

    static GpuDevice gpu(String id, int mem, boolean healthy) {
        return GpuFixtures.card(id).memMiB(mem).type("NVIDIA A100").health(healthy).build();
    }

    /** One container holding {@code mem} MiB and no cores on {@code uuid}. */
    static PodAllocation slice(String uuid, int mem) {
        return slice(uuid, mem, 0);
    }

    static PodAllocation slice(String uuid, int mem, int cores) {
        return new PodAllocation(List.of(List.of(new ContainerDevice(0, uuid, Vendor.NVIDIA, mem, cores))), 0);
    }

    static PodRef pod(String uid) {
        return new PodRef(uid, NS, "pod-" + uid);
    }

    NodeStateFixtures card(String id, int mem) {
        devices.add(gpu(id, mem, true));
        return this;
    }

    NodeStateFixtures sickCard(String id, int mem) {
        devices.add(gpu(id, mem, false));
        return this;
    }

    NodeStateFixtures unregistered() {
        registered = false;
        devices.clear();
        return this;
    }

    NodeStateFixtures reserved(String uid, PodAllocation allocation, long deadline) {
        charges.put(uid, new PodCharge.Reserved(allocation, deadline, NS, "pod-" + uid));
        return this;
    }

    NodeStateFixtures bound(String uid, PodAllocation allocation) {
        charges.put(uid, new PodCharge.Bound(allocation, NS, "pod-" + uid));
        return this;
    }

    NodeStateFixtures locked(String podName, long since) {
        lock = new NodeLockHolder(NS, podName, since);
        return this;
    }

    NodeState build() {
        return new NodeState(name, registered, devices, Map.of(), Map.of(), charges, lock);
    }
}
