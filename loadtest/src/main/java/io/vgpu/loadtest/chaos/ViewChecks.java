package io.vgpu.loadtest.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.PodDevicesCodec;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.DeviceGrant;
import io.vgpu.state.model.DeviceUsage;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.UsageAccounting;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The invariants the replicas' views ({@code GET /debug/state}) must hold. Since issue 14 a replica dumps only the
 * nodes whose keys it owns (full node values never leave their owner and backup), so every node is checked in its
 * owner's dump, and what spans nodes (a pod charged once) is checked on the union of one round's dumps:
 * <ul>
 *   <li><b>capacity</b>: the live charges (Bound, or Reserved before the deadline) of every node never exceed its
 *       cards, as this harness created them (never as the view says they are). A charge of a pod the driver had
 *       deleted before the view was taken is a phantom (a delete not applied yet), counted apart;</li>
 *   <li><b>what a replica scores on</b>: every replica's summary-fed {@code view} against its owner's copy of the
 *       same value ({@link ScoredViews});</li>
 *   <li><b>reservations</b>: no deadline beyond the TTL; no expired one left in its owner's view past
 *       {@link ChaosSettings#sweepBound};</li>
 *   <li><b>charged once</b>: a pod is Bound on one node at most, and only on the node it was bound to, on the
 *       union of the round's dumps ({@link ChargedOnce});</li>
 *   <li><b>locks</b>: an owner's shared-state lock, through {@link LockChecks}.</li>
 * </ul>
 * Not thread-safe: the checker calls it under its lock.
 */
final class ViewChecks {

    private final ChaosCluster cluster;
    private final ChaosSettings settings;
    private final Map<String, PodRecord> pods;
    private final Violations violations;
    private final LockChecks locks;
    private final Set<String> phantoms = new HashSet<>();
    private final Set<String> latePhantoms = new HashSet<>();
    private final ChargedOnce chargedOnce;
    private final ScoredViews scored;
    private final ChargeHistory history;
    private boolean roundQuiet;

    ViewChecks(ChaosCluster cluster, Map<String, PodRecord> pods, Violations violations, LockChecks locks) {
        this.cluster = cluster;
        this.settings = cluster.settings();
        this.pods = pods;
        this.violations = violations;
        this.locks = locks;
        this.chargedOnce = new ChargedOnce(settings, pods, violations);
        this.scored = new ScoredViews(settings, cluster.devices(), violations);
        this.history = new ChargeHistory(violations.startMillis());
    }

    /** Views compared with their owner's copy of the same value so far. */
    int viewsCompared() {
        return scored.compared();
    }

    int phantoms() {
        return phantoms.size();
    }

    int latePhantoms() {
        return latePhantoms.size();
    }

    /** Before a round of views. */
    void begin() {
        chargedOnce.begin();
        scored.begin();
        roundQuiet = false;
    }

    /**
     * After a round of views: checks that each pod is charged once over the union of the round's dumps (the nodes
     * a pod is charged on may be owned by different replicas); a double charge no longer seen is no longer followed.
     */
    void end() {
        chargedOnce.end(roundQuiet);
        scored.end();
    }

    /**
     * Checks one view.
     *
     * @param quiet the run is over and every view has settled: a pod charged twice is a violation at once
     */
    void check(GatewayReplica replica, JsonNode view, List<Pod> apiPods, boolean quiet) {
        long now = view.path("nowMillis").asLong();
        boolean stale = isStale(replica);
        // an owner that is not ready may not have listed its informers yet: it cannot release what it never saw
        boolean ready = view.path("ready").asBoolean();
        for (JsonNode node : view.path("nodes")) {
            String name = node.path("name").asText();
            boolean owned = node.path("owned").asBoolean();
            if (owned && ready) {
                chargedOnce.owner(replica.name() + "#" + replica.incarnations(), stale, name, now);
            }
            List<List<DeviceGrant>> live = new ArrayList<>();
            List<List<DeviceGrant>> all = new ArrayList<>();
            List<List<DeviceGrant>> excused = new ArrayList<>();
            for (JsonNode charge : node.path("charges")) {
                charge(replica, name, owned, stale, charge, now, live, all, excused);
            }
            if (owned) {
                scored.owner(replica.name(), stale, name, node.path("version").asLong(-1), now, all, excused);
                history.owner(replica.name(), node, now);
            }
            overCommitted(cluster.devices().get(name), live).ifPresent(card -> violations.add("over-commit",
                    replica.name() + " " + name + " " + card, "view of " + replica.name() + ": live charges on "
                            + name + " exceed card " + card + ": " + describe(node, now, apiPods)
                            + "; its charges as its owners' dumps changed: " + history.of(name)));
            JsonNode lock = node.path("lock");
            if (lock.isObject() && owned && ready) {
                locks.held("state(" + replica.name() + ")", stale, name, lock.path("name").asText(),
                        lock.path("sinceMillis").asLong(), now);
            }
        }
        scored.view(replica.name(), stale, now, view.path("view"));
        chargedOnce.dump(replica.name(), stale, now);
        roundQuiet |= quiet;
    }

    private void charge(GatewayReplica replica, String node, boolean owned, boolean stale, JsonNode charge, long now,
                        List<List<DeviceGrant>> live, List<List<DeviceGrant>> all,
                        List<List<DeviceGrant>> excused) {
        String uid = charge.path("uid").asText();
        PodAllocation allocation = allocation(charge.path("devices").asText(), charge.path("initCount").asInt());
        boolean reserved = "Reserved".equals(charge.path("state").asText());
        long deadline = charge.path("deadlineMillis").asLong();
        if (allocation == null) {
            violations.add("bad-charge", replica.name() + " " + node + " " + uid, "undecodable charge " + charge);
            return;
        }
        all.add(allocation.grants());
        String podName = charge.path("name").asText();
        if (!reserved) {
            chargedOnce.bound(replica.name(), stale, uid, podName, node, now);
        }
        PodRecord pod = pods.get(podName);
        if (pod != null && pod.deletedAtMillis != 0 && pod.deletedAtMillis < now) {
            phantoms.add(node + " " + uid);
            if (pod.deletedAtMillis < now - 2 * settings.informerDelay().toMillis() - 5_000) {
                latePhantoms.add(node + " " + uid);
            }
            excused.add(allocation.grants());
            return;
        }
        if (!reserved || deadline > now) {
            live.add(allocation.grants());
        } else {
            excused.add(allocation.grants());
        }
        if (reserved && deadline > now + settings.reservationTtl().toMillis() + 2_000) {
            violations.add("long-reservation", uid, "reservation of " + podName + " on " + node + " lives until "
                    + deadline + ", beyond the TTL (view of " + replica.name() + " at " + now + ")");
        }
        if (reserved && owned && deadline < now - settings.sweepBound(stale).toMillis()) {
            violations.add("unswept", uid, "expired reservation of " + podName + " on " + node + " still in its owner "
                    + replica.name() + "'s view " + (now - deadline) + " ms after its deadline (bound "
                    + settings.sweepBound(stale).toMillis() + " ms)");
        }
    }

    private boolean isStale(GatewayReplica replica) {
        int index = cluster.replicas().indexOf(replica);
        return index >= 0 && index == settings.staleReplica();
    }

    /** The first card whose summed grants exceed its slots, memory or cores (model accounting). */
    static Optional<String> overCommitted(List<GpuDevice> devices, List<List<DeviceGrant>> grants) {
        if (devices == null) {
            return Optional.empty();
        }
        for (DeviceUsage u : UsageAccounting.nodeUsage(devices, grants)) {
            if (u.used() > u.count() || u.usedmem() > u.totalmem() || u.usedcores() > u.totalcore()) {
                return Optional.of(u.id() + " (slots " + u.used() + "/" + u.count() + ", MiB " + u.usedmem() + "/"
                        + u.totalmem() + ", cores " + u.usedcores() + "/" + u.totalcore() + ")");
            }
        }
        return Optional.empty();
    }

    static PodAllocation allocation(String encoded, int initCount) {
        if (encoded == null) {
            return null;
        }
        Decoded<List<List<ContainerDevice>>> decoded = PodDevicesCodec.decode(encoded);
        return decoded.isOk() ? new PodAllocation(decoded.value(), initCount) : null;
    }

    static String annotation(Pod pod, String key) {
        Map<String, String> a = pod.getMetadata().getAnnotations();
        return a == null ? null : a.get(key);
    }

    /** Every charge of a view's node, with what the API says of its pod. */
    private static String describe(JsonNode node, long now, List<Pod> apiPods) {
        Map<String, Pod> byUid = new HashMap<>();
        apiPods.forEach(p -> byUid.put(p.getMetadata().getUid(), p));
        List<String> out = new ArrayList<>();
        for (JsonNode charge : node.path("charges")) {
            Pod pod = byUid.get(charge.path("uid").asText());
            String api = pod == null ? "not in the API"
                    : "API: node=" + pod.getSpec().getNodeName() + " annotated=" + annotation(pod,
                    HamiAnnotations.VGPU_NODE) + " phase=" + (pod.getStatus() == null ? null
                    : pod.getStatus().getPhase()) + " devices=" + annotation(pod, HamiAnnotations.DEVICES_ALLOCATED);
            out.add(charge.path("name").asText() + " " + charge.path("state").asText()
                    + ("Reserved".equals(charge.path("state").asText())
                    ? "(" + (charge.path("deadlineMillis").asLong() - now) + " ms left)" : "")
                    + " " + charge.path("devices").asText() + " [" + api + "]");
        }
        return String.join("; ", out);
    }
}
