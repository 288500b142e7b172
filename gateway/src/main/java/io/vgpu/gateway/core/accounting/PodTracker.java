package io.vgpu.gateway.core.accounting;

import io.vgpu.gateway.core.quota.QuotaBook;
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.PodDevicesCodec;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.DeviceGrant;
import io.vgpu.state.model.UsageAccounting;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The scheduler's pod cache (spec §8.1): which pods are charged to which node, fed by informer
 * events, keeping the namespace quota usage in step. Pure (no I/O); thread-safe per pod.
 *
 * <pre>
 *   add/update, not finished, not terminating, hami.io/vgpu-node set, allocation decodable (absent: no devices)
 *        ──────────────────────────────────────────────► tracked (collapsed charge)
 *   update with every init container Terminated(0), once ──► tracked (app-only charge, shrunk)
 *   Succeeded / Failed / delete ──────────────────────────► forgotten (quota usage removed)
 *   terminating and not yet tracked ──────────────────────► ignored (a restart does not re-charge it)
 * </pre>
 */
public final class PodTracker {

    private final Map<String, TrackedPod> pods = new ConcurrentHashMap<>();
    private final QuotaBook quotas;

    /** @param quotas the namespace quota book whose usage this tracker maintains */
    public PodTracker(QuotaBook quotas) {
        this.quotas = quotas;
    }

    /** Informer add. */
    public void onAdd(PodObservation pod) {
        if (pod.finished()) {
            forget(pod.uid());
            return;
        }
        TrackedPod current = pods.get(pod.uid());
        if (pod.terminating() && current == null) {
            return;
        }
        TrackedPod decoded = decode(pod);
        if (decoded == null) {
            return;
        }
        if (current != null && current.shrunk()) {
            return; // a re-add never undoes the init shrink
        }
        replace(current, decoded);
    }

    /** Informer update: the add rules, then the one-time init shrink. */
    public void onUpdate(PodObservation pod) {
        onAdd(pod);
        TrackedPod current = pods.get(pod.uid());
        if (current != null && !current.shrunk() && current.initCount() > 0 && pod.initContainersDoneOk()) {
            List<DeviceGrant> appOnly = UsageAccounting.appOnly(current.containers(), current.initCount());
            replace(current, new TrackedPod(current.uid(), current.namespace(), current.name(), current.node(),
                    current.containers(), current.initCount(), appOnly, true));
        }
    }

    /** Informer delete (tombstones included). */
    public void onDelete(String uid) {
        forget(uid);
    }

    /** The tracked pod with {@code uid}, or null. */
    public TrackedPod get(String uid) {
        return pods.get(uid);
    }

    /** Every tracked pod. */
    public Collection<TrackedPod> all() {
        return List.copyOf(pods.values());
    }

    /** The charges of every pod tracked on {@code node}. */
    public List<List<DeviceGrant>> grantsOn(String node) {
        List<List<DeviceGrant>> out = new ArrayList<>();
        for (TrackedPod p : pods.values()) {
            if (p.node().equals(node)) {
                out.add(p.grants());
            }
        }
        return out;
    }

    private void forget(String uid) {
        TrackedPod old = pods.remove(uid);
        if (old != null) {
            quotas.removeUsage(old.namespace(), old.grants());
        }
    }

    private void replace(TrackedPod old, TrackedPod next) {
        pods.put(next.uid(), next);
        if (old != null) {
            quotas.removeUsage(old.namespace(), old.grants());
        }
        quotas.addUsage(next.namespace(), next.grants());
    }

    /**
     * The tracked form of a pod, or null when it carries no {@code hami.io/vgpu-node} or an undecodable allocation. A
     * pod with the node but no {@code hami.io/vgpu-devices-allocated} is tracked with no devices: HAMi reads the
     * missing annotation as "" (one empty container), so such a pod stays in its cache until it finishes or is
     * deleted.
     */
    private static TrackedPod decode(PodObservation pod) {
        String node = pod.annotations().get(HamiAnnotations.VGPU_NODE);
        if (node == null || node.isEmpty()) {
            return null;
        }
        String allocated = pod.annotations().getOrDefault(HamiAnnotations.DEVICES_ALLOCATED, "");
        Decoded<List<List<ContainerDevice>>> containers = PodDevicesCodec.decode(allocated);
        if (!containers.isOk()) {
            return null;
        }
        List<List<ContainerDevice>> list = containers.value();
        return new TrackedPod(pod.uid(), pod.namespace(), pod.name(), node, list, pod.initCount(),
                UsageAccounting.collapse(list, pod.initCount()), false);
    }
}
