package io.vgpu.loadtest.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeLock;
import io.vgpu.state.codec.NodeLockCodec;
import io.vgpu.state.model.DeviceGrant;
import io.vgpu.state.model.PodAllocation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Checks what must hold whatever was killed, from the API server (the durable truth: pods' annotations and
 * {@code spec.nodeName}, node locks, the accepted bindings) and from every live replica's {@code /debug/state}
 * (its local view of the shared state):
 * <ol>
 *   <li><b>capacity</b>: per card, the memory, cores and slots granted to the pods bound there, and to the live
 *       charges of every view, never exceed the card (summed with the model's {@code UsageAccounting}). A view's
 *       charge of a pod the driver had deleted before the view was taken is a phantom (a delete not applied yet,
 *       or applied and then undone by a late event), not a grant: it is counted apart ({@link #phantoms}) and must
 *       be gone by the end;</li>
 *   <li><b>placed once</b>: no pod was ever bound to two nodes, the gateway never tried to bind a bound pod
 *       elsewhere (the API server records every attempt), and a bound pod carries the devices of its node;</li>
 *   <li><b>node lock</b>: every Binding was made while the node lock named its pod, and the device plugin found it
 *       so;</li>
 *   <li><b>charged once</b>: a pod is Bound on one node at most, the one it was bound to, on the union of a round's
 *       owner dumps ({@link ChargedOnce}); and a pod placed and not being ended is charged on its node in the node's
 *       owner's dump past one ingest and the slack ({@link ChargedWherePlaced}, "uncharged");</li>
 *   <li><b>locks</b>: no node lock (the annotation, or a view's shared-state lock) stays held by a pod that no
 *       longer binds past its bound ({@link LockChecks});</li>
 *   <li><b>reservations</b>: every reservation ends bound or expired: no deadline beyond the TTL, no expired one
 *       left unswept in its owner's view past the sweep bound, none left at all once the run is over;</li>
 *   <li><b>the end</b>: every pod was placed and removed, and every view drained: no charge and no lock left; HAMi's
 *       cluster gauges are exported exactly once across the replicas.</li>
 * </ol>
 * Card capacity always comes from the harness's own node list, never from a replica. Violations go to
 * {@link Violations}, with details, once per subject.
 */
final class InvariantChecker {

    private static final String CARD_GAUGE = "hami_gpu_memory_limit_bytes";

    private final ChaosCluster cluster;
    private final ChaosSettings settings;
    private final Violations violations;
    private final LockChecks locks;
    private final ViewChecks views;
    private int secondBindingsSeen;
    private int unlockedBindingsSeen;
    private long checks;

    InvariantChecker(ChaosCluster cluster, Map<String, PodRecord> pods, Violations violations) {
        this.cluster = cluster;
        this.settings = cluster.settings();
        this.violations = violations;
        this.locks = new LockChecks(settings, pods, violations);
        this.views = new ViewChecks(cluster, pods, violations, locks);
    }

    synchronized long checks() {
        return checks;
    }

    /** The longest a lock was seen held by a pod that no longer binds (and whose binds never failed), in ms. */
    synchronized long longestLockHeld() {
        return locks.longestHeld();
    }

    /** Distinct charges seen in some view for a pod the driver had deleted before the view was taken. */
    synchronized int phantoms() {
        return views.phantoms();
    }

    /**
     * The part of {@link #phantoms} still charged more than twice the informer delay plus 5 s after the deletion (a
     * stale owner applies the delete that late, and a stale view shows it that much later again): deletes that were
     * lost and repaired later, rather than merely not applied yet.
     */
    synchronized int latePhantoms() {
        return views.latePhantoms();
    }

    /** Replicas' views compared with their owner's copy of the same node value ({@link ScoredViews}). */
    synchronized int viewsCompared() {
        return views.viewsCompared();
    }

    /** One periodic check (safe to run while the load runs and replicas die). */
    synchronized void check() {
        check(false);
    }

    private void check(boolean quiet) {
        checks++;
        long now = System.currentTimeMillis();
        List<Pod> apiPods = cluster.kube().pods().inNamespace(ChaosCluster.NAMESPACE).list().getItems();
        List<Node> apiNodes = cluster.kube().nodes().list().getItems();
        apiCapacity(apiPods);
        placedOnce(apiPods);
        bindings();
        locks.begin();
        views.begin();
        apiLocks(apiNodes, now);
        for (GatewayReplica replica : cluster.replicas()) {
            if (!replica.alive()) {
                continue;
            }
            Optional<JsonNode> view = cluster.debugState(replica);
            view.ifPresent(v -> views.check(replica, v, apiPods, quiet));
            if (view.isPresent() && cluster.replicas().indexOf(replica) == settings.staleReplica()) {
                cluster.api().failBindingsOn(ownedNodes(view.get()));
            }
        }
        views.end();
        locks.end();
    }

    /** The nodes a view says its replica owns (its ingest applies their events). */
    private static Set<String> ownedNodes(JsonNode view) {
        Set<String> owned = new HashSet<>();
        for (JsonNode node : view.path("nodes")) {
            if (node.path("owned").asBoolean() && node.path("name").asText().startsWith(ChaosCluster.NODE_PREFIX)) {
                owned.add(node.path("name").asText());
            }
        }
        return owned;
    }

    /**
     * The final check, once the load has stopped: waits (up to the informer delay, the TTL and the sweep period)
     * for every view to drain, then reports whatever is left, and checks once more with the run quiet.
     *
     * @param everyPodDone whether every pod was placed, run and deleted (otherwise what is left is expected)
     * @param settle       whether to wait for the views to drain (a run stopped at its first violation does not)
     */
    synchronized void finalCheck(boolean everyPodDone, boolean settle) {
        check(false);
        if (!settle) {
            return;
        }
        long wait = settings.informerDelay().toMillis() + settings.reservationTtl().toMillis() + 20_000;
        long deadline = System.currentTimeMillis() + wait;
        List<String> left = leftovers();
        while (!left.isEmpty() && System.currentTimeMillis() < deadline) {
            ChaosCluster.sleep(500);
            left = leftovers();
        }
        if (everyPodDone) {
            left.forEach(l -> violations.add("leftover", l, l));
        }
        gaugesOnce();
        check(true);
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
                violations.add("gauges", replica.name(), replica.name() + " does not answer /metrics");
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
                violations.add("gauges", node + " " + card.id(), CARD_GAUGE + " of " + card.id() + " on " + node
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
            PodAllocation allocation = ViewChecks.allocation(ViewChecks.annotation(pod,
                    HamiAnnotations.DEVICES_ALLOCATED), pod.getSpec().getInitContainers().size());
            if (allocation != null) {
                byNode.computeIfAbsent(node, n -> new ArrayList<>()).add(allocation.grants());
                namesByNode.computeIfAbsent(node, n -> new ArrayList<>()).add(pod.getMetadata().getName());
            }
        }
        byNode.forEach((node, grants) -> ViewChecks.overCommitted(cluster.devices().get(node), grants)
                .ifPresent(card -> violations.add("over-commit", "api " + node + " " + card,
                        "pods bound to " + node + " exceed card " + card + ": " + namesByNode.get(node))));
    }

    // ------------------------------------------------------------------ placement

    private void placedOnce(List<Pod> apiPods) {
        cluster.api().placedTwice().forEach((uid, nodes) ->
                violations.add("placed-twice", uid, "pod " + uid + " was bound to " + nodes));
        for (Pod pod : apiPods) {
            String node = pod.getSpec().getNodeName();
            String annotated = ViewChecks.annotation(pod, HamiAnnotations.VGPU_NODE);
            if (node != null && !node.isEmpty() && !node.equals(annotated)) {
                violations.add("wrong-devices", pod.getMetadata().getName(), "pod " + pod.getMetadata().getName()
                        + " is bound to " + node + " but its devices were allocated on " + annotated);
            }
        }
    }

    /**
     * What the API server recorded of the gateway's Bindings: a Binding of a pod bound elsewhere (the API server
     * refused it; the gateway must not try), and a Binding made while the node lock did not name the pod.
     */
    private void bindings() {
        List<ChaosApiServer.SecondBinding> second = cluster.api().secondBindings();
        for (ChaosApiServer.SecondBinding b : second.subList(Math.min(secondBindingsSeen, second.size()),
                second.size())) {
            if (b.elsewhere()) {
                violations.add("placed-twice", b.podUid(), "the gateway tried to bind " + b.pod() + ", bound to "
                        + b.boundTo() + ", to " + b.requested() + " (refused by the API server)");
            }
        }
        secondBindingsSeen = second.size();
        List<ChaosApiServer.UnlockedBinding> unlocked = cluster.api().unlockedBindings();
        for (ChaosApiServer.UnlockedBinding b : unlocked.subList(Math.min(unlockedBindingsSeen, unlocked.size()),
                unlocked.size())) {
            violations.add("unlocked-bind", b.podUid(), b.pod() + " was bound to " + b.node() + " while the node lock "
                    + (b.lock() == null ? "was free" : "was " + b.lock()));
        }
        unlockedBindingsSeen = unlocked.size();
    }

    // ------------------------------------------------------------------ locks

    private void apiLocks(List<Node> apiNodes, long now) {
        for (Node node : apiNodes) {
            Map<String, String> a = node.getMetadata().getAnnotations();
            String value = a == null ? null : a.get(HamiAnnotations.NODE_LOCK);
            if (value == null) {
                continue;
            }
            Decoded<NodeLock> lock = NodeLockCodec.parse(value);
            if (!lock.isOk() || !lock.value().namesOwner()) {
                violations.add("bad-lock", node.getMetadata().getName(), "unreadable lock " + value);
                continue;
            }
            locks.held("api", false, node.getMetadata().getName(), lock.value().name(),
                    lock.value().time().toEpochMilli(), now);
        }
    }

    /**
     * What is left in the API (locks) and in every view (charges, locks) once no pod is alive; a lock that a failed or
     * interrupted bind left is not (nothing takes it over while no bind comes), whatever its age.
     */
    private List<String> leftovers() {
        List<String> left = new ArrayList<>();
        for (Node node : cluster.kube().nodes().list().getItems()) {
            Map<String, String> a = node.getMetadata().getAnnotations();
            String lock = a == null ? null : a.get(HamiAnnotations.NODE_LOCK);
            if (lock != null && !locks.mayOutliveTheRun(holder(lock))) {
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
            for (JsonNode node : view.get().path("nodes")) {
                String name = node.path("name").asText();
                for (JsonNode charge : node.path("charges")) {
                    left.add(replica.name() + " view: " + charge.path("state").asText() + " charge of "
                            + charge.path("name").asText() + " on " + name
                            + (node.path("owned").asBoolean() ? " (its owner)" : ""));
                }
                JsonNode lock = node.path("lock");
                if (lock.isObject() && !locks.mayOutliveTheRun(lock.path("name").asText())) {
                    left.add(replica.name() + " view: lock on " + name + " held by " + lock.path("name").asText()
                            + " since " + lock.path("sinceMillis").asLong());
                }
            }
        }
        return left;
    }

    private static String holder(String lock) {
        Decoded<NodeLock> parsed = NodeLockCodec.parse(lock);
        return parsed.isOk() ? parsed.value().name() : "";
    }
}
