package io.vgpu.loadtest.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeLock;
import io.vgpu.state.codec.NodeLockCodec;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.codec.PodDevicesCodec;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.DeviceGrant;
import io.vgpu.state.model.DeviceUsage;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.UsageAccounting;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks what must hold whatever was killed, from the API server (the durable truth: pods' annotations and
 * {@code spec.nodeName}, node locks, the accepted bindings) and from every live replica's {@code /debug/state}
 * (its local view of the shared state):
 * <ol>
 *   <li><b>capacity</b>: per card, the memory, cores and slots granted to the pods bound there, and to the live
 *       charges of every view, never exceed the card (summed with the model's {@link UsageAccounting}). A view's
 *       charge of a pod the driver had deleted before the view was taken is a phantom (a delete not applied yet,
 *       or applied and then undone by a late event), not a grant: it is counted apart ({@link #phantoms}) and must
 *       be gone by the end;</li>
 *   <li><b>placed once</b>: no pod was ever bound to two nodes, and a bound pod carries the devices of its node;</li>
 *   <li><b>locks</b>: no node lock (the annotation, or a view's shared-state lock) stays held by a pod that no
 *       longer binds for longer than the informer delay plus the lock grace; a lock left by a bind that died with
 *       its replica may block until the lock timeout, after which the next bind takes it over;</li>
 *   <li><b>reservations</b>: every reservation ends bound or expired: no deadline beyond the TTL, no expired one
 *       left unswept in its owner's view beyond the sweep period, none left at all once the run is over;</li>
 *   <li><b>the end</b>: every pod was placed and removed, and every view drained: no charge and no lock left; HAMi's
 *       cluster gauges are exported exactly once across the replicas.</li>
 * </ol>
 * Violations are collected with details, once per subject.
 */
final class InvariantChecker {

    private static final Logger LOG = LoggerFactory.getLogger(InvariantChecker.class);

    private static final long SWEEP_SLACK_MILLIS = 5_000;
    private static final long LOCK_GRACE_MILLIS = 5_000;
    private static final String CARD_GAUGE = "hami_gpu_memory_limit_bytes";

    private final ChaosCluster cluster;
    private final ChaosSettings settings;
    private final Map<String, PodRecord> pods;
    private final Map<String, String> violations = new LinkedHashMap<>();
    private final Map<String, Long> lockedByNonBinder = new ConcurrentHashMap<>();
    private final Set<String> phantoms = new HashSet<>();
    private final Set<String> latePhantoms = new HashSet<>();
    private long checks;

    InvariantChecker(ChaosCluster cluster, Map<String, PodRecord> pods) {
        this.cluster = cluster;
        this.settings = cluster.settings();
        this.pods = pods;
    }

    /** Every violation so far, "kind subject: details", in the order found. */
    synchronized List<String> violations() {
        return new ArrayList<>(violations.values());
    }

    synchronized long checks() {
        return checks;
    }

    /** Distinct charges seen in some view for a pod the driver had deleted before the view was taken. */
    synchronized int phantoms() {
        return phantoms.size();
    }

    /**
     * The part of {@link #phantoms} still charged more than twice the informer delay plus 5 s after the deletion (a
     * stale owner applies the delete that late, and a stale view shows it that much later again): deletes that were
     * lost and repaired later, rather than merely not applied yet.
     */
    synchronized int latePhantoms() {
        return latePhantoms.size();
    }

    /** One periodic check (safe to run while the load runs and replicas die). */
    synchronized void check() {
        checks++;
        long now = System.currentTimeMillis();
        List<Pod> apiPods = cluster.kube().pods().inNamespace(ChaosCluster.NAMESPACE).list().getItems();
        List<Node> apiNodes = cluster.kube().nodes().list().getItems();
        apiCapacity(apiPods);
        placedOnce(apiPods);
        Set<String> seenLocks = new HashSet<>();
        apiLocks(apiNodes, now, seenLocks);
        for (GatewayReplica replica : cluster.replicas()) {
            if (!replica.alive()) {
                continue;
            }
            Optional<JsonNode> view = cluster.debugState(replica);
            view.ifPresent(v -> checkView(replica, v, seenLocks, apiPods));
        }
        lockedByNonBinder.keySet().retainAll(seenLocks);
    }

    /**
     * The final check, once the load has stopped: waits (up to the informer delay, the TTL and the sweep period)
     * for every view to drain, then reports whatever is left.
     */
    synchronized void finalCheck(boolean everyPodDone) {
        check();
        long settle = settings.informerDelay().toMillis() + settings.reservationTtl().toMillis() + 20_000;
        long deadline = System.currentTimeMillis() + settle;
        List<String> left = leftovers();
        while (!left.isEmpty() && System.currentTimeMillis() < deadline) {
            ChaosCluster.sleep(500);
            left = leftovers();
        }
        if (everyPodDone) {
            left.forEach(l -> violation("leftover", l, l));
        }
        gaugesOnce();
        check();
    }

    /**
     * HAMi's cluster gauges exist exactly once across the replicas (each node's are exported by the owner of its
     * key): every registered card's {@code hami_gpu_memory_limit_bytes} series in exactly one replica's scrape.
     */
    private void gaugesOnce() {
        Map<String, Integer> seen = new HashMap<>();
        for (GatewayReplica replica : cluster.replicas()) {
            if (!replica.alive()) {
                continue;
            }
            Optional<String> scrape = cluster.scrape(replica);
            if (scrape.isEmpty()) {
                violation("gauges", replica.name(), replica.name() + " does not answer /metrics");
                continue;
            }
            for (String line : scrape.get().split("\n")) {
                if (line.startsWith(CARD_GAUGE + "{")) {
                    seen.merge(label(line, "node") + " " + label(line, "device_uuid"), 1, Integer::sum);
                }
            }
        }
        cluster.devices().forEach((node, cards) -> cards.forEach(card -> {
            int times = seen.getOrDefault(node + " " + card.id(), 0);
            if (times != 1) {
                violation("gauges", node + " " + card.id(), CARD_GAUGE + " of " + card.id() + " on " + node
                        + " exported by " + times + " replicas (must be exactly one, the key's owner)");
            }
        }));
    }

    private static String label(String line, String name) {
        int at = line.indexOf(name + "=\"");
        if (at < 0) {
            return "";
        }
        int from = at + name.length() + 2;
        return line.substring(from, line.indexOf('"', from));
    }

    // ------------------------------------------------------------------ capacity

    private void apiCapacity(List<Pod> apiPods) {
        Map<String, List<List<DeviceGrant>>> byNode = new HashMap<>();
        Map<String, List<String>> namesByNode = new HashMap<>();
        for (Pod pod : apiPods) {
            String node = pod.getSpec().getNodeName();
            String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
            if (node == null || node.isEmpty() || "Succeeded".equals(phase) || "Failed".equals(phase)) {
                continue;
            }
            PodAllocation allocation = allocation(annotation(pod, HamiAnnotations.DEVICES_ALLOCATED),
                    pod.getSpec().getInitContainers().size());
            if (allocation != null) {
                byNode.computeIfAbsent(node, n -> new ArrayList<>()).add(allocation.grants());
                namesByNode.computeIfAbsent(node, n -> new ArrayList<>()).add(pod.getMetadata().getName());
            }
        }
        byNode.forEach((node, grants) -> overCommitted(cluster.devices().get(node), grants).ifPresent(card ->
                violation("over-commit", "api " + node + " " + card,
                        "pods bound to " + node + " exceed card " + card + ": " + namesByNode.get(node))));
    }

    /** The first card whose summed grants exceed its slots, memory or cores (model accounting). */
    private static Optional<String> overCommitted(List<GpuDevice> devices, List<List<DeviceGrant>> grants) {
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

    // ------------------------------------------------------------------ placement

    private void placedOnce(List<Pod> apiPods) {
        cluster.api().placedTwice().forEach((uid, nodes) ->
                violation("placed-twice", uid, "pod " + uid + " was bound to " + nodes));
        for (Pod pod : apiPods) {
            String node = pod.getSpec().getNodeName();
            String annotated = annotation(pod, HamiAnnotations.VGPU_NODE);
            if (node != null && !node.isEmpty() && !node.equals(annotated)) {
                violation("wrong-devices", pod.getMetadata().getName(), "pod " + pod.getMetadata().getName()
                        + " is bound to " + node + " but its devices were allocated on " + annotated);
            }
        }
    }

    // ------------------------------------------------------------------ locks

    private void apiLocks(List<Node> apiNodes, long now, Set<String> seen) {
        for (Node node : apiNodes) {
            Map<String, String> a = node.getMetadata().getAnnotations();
            String value = a == null ? null : a.get(HamiAnnotations.NODE_LOCK);
            if (value == null) {
                continue;
            }
            Decoded<NodeLock> lock = NodeLockCodec.parse(value);
            if (!lock.isOk() || !lock.value().namesOwner()) {
                violation("bad-lock", node.getMetadata().getName(), "unreadable lock " + value);
                continue;
            }
            long since = lock.value().time().toEpochMilli();
            lockHeld("api", node.getMetadata().getName(), lock.value().name(), since, now, seen);
        }
    }

    /**
     * A lock held by a pod that does not bind: tolerated for the grace (plus the informer delay, for views and
     * owners that see late); a lock left by a bind that died with its replica is tolerated until the lock timeout.
     */
    private void lockHeld(String where, String node, String holder, long sinceMillis, long now, Set<String> seen) {
        PodRecord pod = pods.get(holder);
        if (pod != null && pod.mayHoldLock()) {
            return;
        }
        if (now - sinceMillis > settings.nodeLockTimeout().toMillis()) {
            return; // expired: the next bind on the node takes it over
        }
        String key = where + " " + node + " " + holder;
        seen.add(key);
        long firstSeen = lockedByNonBinder.computeIfAbsent(key, k -> now);
        long allowed = (pod != null && pod.bindInterrupted) ? settings.nodeLockTimeout().toMillis()
                : settings.informerDelay().toMillis() + LOCK_GRACE_MILLIS + 2 * settings.checkEvery().toMillis();
        if (now - firstSeen > allowed) {
            violation("stale-lock", key, where + " lock on " + node + " held by " + holder + " ("
                    + (pod == null ? "unknown pod" : pod.phase + (pod.bindInterrupted ? ", bind interrupted" : ""))
                    + ") for " + (now - firstSeen) + " ms after it stopped binding");
        }
    }

    // ------------------------------------------------------------------ views

    private void checkView(GatewayReplica replica, JsonNode view, Set<String> seenLocks, List<Pod> apiPods) {
        long now = view.path("nowMillis").asLong();
        long ttl = settings.reservationTtl().toMillis();
        long lag = settings.informerDelay().toMillis();
        for (JsonNode node : view.path("nodes")) {
            String name = node.path("name").asText();
            List<GpuDevice> devices = devices(node.path("devices").asText());
            List<List<DeviceGrant>> live = new ArrayList<>();
            for (JsonNode charge : node.path("charges")) {
                PodAllocation allocation = allocation(charge.path("devices").asText(),
                        charge.path("initCount").asInt());
                boolean reserved = "Reserved".equals(charge.path("state").asText());
                long deadline = charge.path("deadlineMillis").asLong();
                if (allocation == null) {
                    violation("bad-charge", replica.name() + " " + name + " " + charge.path("uid").asText(),
                            "undecodable charge " + charge);
                    continue;
                }
                PodRecord pod = pods.get(charge.path("name").asText());
                if (pod != null && pod.deletedAtMillis != 0 && pod.deletedAtMillis < now) {
                    phantoms.add(name + " " + charge.path("uid").asText());
                    if (pod.deletedAtMillis < now - 2 * lag - 5_000) {
                        latePhantoms.add(name + " " + charge.path("uid").asText());
                    }
                    continue;
                }
                if (!reserved || deadline > now) {
                    live.add(allocation.grants());
                }
                if (reserved && deadline > now + ttl + 2_000) {
                    violation("long-reservation", charge.path("uid").asText(), "reservation of "
                            + charge.path("name").asText() + " on " + name + " lives until " + deadline + ", beyond "
                            + "the TTL (view of " + replica.name() + " at " + now + ")");
                }
                if (reserved && node.path("owned").asBoolean() && deadline < now - SWEEP_SLACK_MILLIS - lag) {
                    violation("unswept", charge.path("uid").asText(), "expired reservation of "
                            + charge.path("name").asText() + " on " + name + " still in its owner " + replica.name()
                            + "'s view " + (now - deadline) + " ms after its deadline");
                }
            }
            overCommitted(devices, live).ifPresent(card -> violation("over-commit",
                    replica.name() + " " + name + " " + card, "view of " + replica.name() + ": live charges on "
                            + name + " exceed card " + card + ": " + describe(node, now, apiPods)));
            JsonNode lock = node.path("lock");
            if (lock.isObject() && node.path("owned").asBoolean()) {
                lockHeld("state(" + replica.name() + ")", name, lock.path("name").asText(),
                        lock.path("sinceMillis").asLong(), now, seenLocks);
            }
        }
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

    /** What is left in the API (locks) and in every view (charges, locks) once no pod is alive. */
    private List<String> leftovers() {
        List<String> left = new ArrayList<>();
        for (Node node : cluster.kube().nodes().list().getItems()) {
            Map<String, String> a = node.getMetadata().getAnnotations();
            String lock = a == null ? null : a.get(HamiAnnotations.NODE_LOCK);
            if (lock != null && !expired(lock)) {
                left.add("api lock on " + node.getMetadata().getName() + ": " + lock);
            }
        }
        for (GatewayReplica replica : cluster.replicas()) {
            if (!replica.alive()) {
                continue;
            }
            Optional<JsonNode> view = cluster.debugState(replica);
            if (view.isEmpty()) {
                left.add(replica.name() + " does not answer /debug/state");
                continue;
            }
            long now = view.get().path("nowMillis").asLong();
            for (JsonNode node : view.get().path("nodes")) {
                String name = node.path("name").asText();
                for (JsonNode charge : node.path("charges")) {
                    left.add(replica.name() + " view: " + charge.path("state").asText() + " charge of "
                            + charge.path("name").asText() + " on " + name
                            + (node.path("owned").asBoolean() ? " (its owner)" : ""));
                }
                JsonNode lock = node.path("lock");
                if (lock.isObject() && now - lock.path("sinceMillis").asLong() <= settings.nodeLockTimeout().toMillis()) {
                    left.add(replica.name() + " view: lock on " + name + " held by " + lock.path("name").asText());
                }
            }
        }
        return left;
    }

    private boolean expired(String lock) {
        Decoded<NodeLock> parsed = NodeLockCodec.parse(lock);
        return parsed.isOk() && System.currentTimeMillis() - parsed.value().time().toEpochMilli()
                > settings.nodeLockTimeout().toMillis();
    }

    // ------------------------------------------------------------------ helpers

    private static String annotation(Pod pod, String key) {
        Map<String, String> a = pod.getMetadata().getAnnotations();
        return a == null ? null : a.get(key);
    }

    private static PodAllocation allocation(String encoded, int initCount) {
        if (encoded == null) {
            return null;
        }
        Decoded<List<List<ContainerDevice>>> decoded = PodDevicesCodec.decode(encoded);
        return decoded.isOk() ? new PodAllocation(decoded.value(), initCount) : null;
    }

    private static List<GpuDevice> devices(String register) {
        if (register == null || register.isEmpty()) {
            return List.of();
        }
        Decoded<List<GpuDevice>> decoded = NodeRegisterCodec.decode(register);
        return decoded.isOk() ? decoded.value() : List.of();
    }

    private void violation(String kind, String subject, String details) {
        String key = kind + " " + subject;
        if (!violations.containsKey(key)) {
            violations.put(key, kind + ": " + details);
            // at once, with the time: a long soak's replica logs are read around the moment it happened
            LOG.warn("chaos: VIOLATION {}: {}", kind, details);
        }
    }
}
