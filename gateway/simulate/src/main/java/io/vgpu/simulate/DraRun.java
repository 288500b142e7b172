package io.vgpu.simulate;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.dra.ClaimTranslator;
import io.vgpu.gateway.core.dra.DraConfig;
import io.vgpu.gateway.core.dra.DraTranslation;
import io.vgpu.gateway.core.dra.ExistingClaims;
import io.vgpu.gateway.core.webhook.PatchOp;
import io.vgpu.gateway.core.request.RequestDeriver;
import io.vgpu.simulate.dra.AllocationOutcome;
import io.vgpu.simulate.dra.ClaimAllocation;
import io.vgpu.simulate.dra.ClaimController;
import io.vgpu.simulate.dra.ClaimDeallocation;
import io.vgpu.simulate.dra.DraAllocator;
import io.vgpu.state.model.NodeView;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * One DRA-mode cluster as kube-scheduler, kube-controller-manager and the API server would hold it, driven one
 * pod at a time ({@link #submit}), with the stand-ins of this module:
 * <pre>
 *   translate     admitted HAMi pod → ResourceClaimTemplate vgpu-&lt;hash&gt; (created once per namespace
 *                 and shape) + the webhook's JSON Patch (spec.resourceClaims, resources.claims, the
 *                 extended resources removed)                               (the gateway's {@link ClaimTranslator})
 *   claim ctrl    the pod's claim from its template, owned by the pod          ({@link ClaimController})
 *   schedule      Filter on every node (the structured allocator, in-flight claims counted), the best node
 *                 by the node policy's score, Reserve, PreBind writes status.allocation and reservedFor,
 *                 Bind sets spec.nodeName                                       ({@link DraAllocator})
 *   delete        the pod goes; the claim controller clears the allocation and deletes the claim
 *                                                                                ({@link ClaimDeallocation})
 * </pre>
 * Not thread-safe: one driver thread.
 */
final class DraRun {

    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    /** kube-scheduler's {@code minFeasibleNodesToFind}. */
    static final int MIN_FEASIBLE = 100;

    private final DraCluster cluster;
    private final DraAllocator allocator;
    private final ClaimTranslator translator;
    private final String nodePolicy;
    private final DraWrites writes;
    private final Map<String, ResourceClaimTemplate> templates = new HashMap<>();
    private final Map<String, Pod> pods = new LinkedHashMap<>();
    /** Namespace and name of every claim created, deleted or not. */
    private final List<String[]> created = new ArrayList<>();
    private long shares;
    private long names;

    DraRun(List<SyntheticNode> nodes, RequestDeriver requests, String nodePolicy) {
        this(nodes, requests, nodePolicy, DraWrites.NONE);
    }

    /**
     * @param nodes      the nodes (their GPUs as their register annotations describe them; in DRA mode they publish
     *                   slices instead)
     * @param requests   how HAMi requests are read
     * @param nodePolicy binpack or spread
     * @param writes     where the objects go besides this run's own view (the slices and class at once)
     */
    DraRun(List<SyntheticNode> nodes, RequestDeriver requests, String nodePolicy, DraWrites writes) {
        this.writes = writes;
        this.cluster = DraCluster.of(nodes);
        this.translator = new ClaimTranslator(requests.config(), DraConfig.DEFAULTS);
        this.nodePolicy = nodePolicy;
        this.allocator = new DraAllocator(() -> String.format("00000000-0000-4000-a000-%012d", shares++),
                Clock.systemUTC());
        allocator.putClass(DraCluster.deviceClass());
        cluster.slices().forEach(allocator::putSlice);
        writes.published(cluster.slices(), DraCluster.deviceClass());
    }

    /** The outcome of one pod: bound to a node with its claims, or not placed and why. */
    sealed interface Placement {
        /** Bound; {@code claims} allocated claims to prepare on {@code node}. */
        record Bound(Pod pod, String node, int claims) implements Placement {
        }

        /** Not placed. */
        record NotPlaced(String reason) implements Placement {
        }
    }

    /**
     * Translates one admitted pod with the webhook's own {@link ClaimTranslator}, creates its template (once per
     * namespace and shape) and its claim, schedules and binds it.
     */
    Placement submit(PodSpec admitted) {
        SortedSet<Long> sizes = new TreeSet<>(cluster.cardSizesMiB());
        DraTranslation translated = translator.translate(admitted,
                ExistingClaims.none(admitted.initContainers().size(), admitted.containers().size()), () -> sizes);
        if (translated instanceof DraTranslation.Refused refused) {
            return new Placement.NotPlaced("webhook denied: " + refused.message());
        }
        if (!(translated instanceof DraTranslation.Translated t)) {
            return new Placement.NotPlaced("no GPU requested");
        }
        String templateKey = admitted.namespace() + "/" + t.template().name();
        ResourceClaimTemplate template = templates.get(templateKey);
        if (template == null) {
            template = JSON.unmarshal(t.template().objectJson(), ResourceClaimTemplate.class);
            templates.put(templateKey, template);
            writes.template(template);
        }
        Pod pod = JSON.unmarshal(JsonPatch.apply(Manifests.pod(admitted), patchJson(t.patch())).toString(), Pod.class);
        PodResourceClaim entry = pod.getSpec().getResourceClaims().stream()
                .filter(e -> t.template().name().equals(e.getResourceClaimTemplateName())).findFirst().orElseThrow();
        return place(pod, entry, template);
    }

    /**
     * Places one pod a real gateway's webhook admitted ({@link DraWebhook}): its claim from {@code template}, which
     * the webhook created in the API server, then scheduled and bound as {@link #submit} does.
     */
    Placement submitAdmitted(Pod pod, PodResourceClaim entry, ResourceClaimTemplate template) {
        templates.putIfAbsent(pod.getMetadata().getNamespace() + "/" + template.getMetadata().getName(), template);
        return place(pod, entry, template);
    }

    private Placement place(Pod admitted, PodResourceClaim entry, ResourceClaimTemplate template) {
        Pod pod = admitted;
        ResourceClaim claim = ClaimController.claimFor(pod, entry, template, () -> String.format("%05d", names++ % 100_000));
        allocator.putClaim(claim);
        created.add(new String[] {claim.getMetadata().getNamespace(), claim.getMetadata().getName()});
        pod = ClaimController.withClaimStatus(pod, entry.getName(), claim.getMetadata().getName());
        pods.put(key(pod), pod);
        writes.created(pod, claim);
        return schedule(pod);
    }

    private static ArrayNode patchJson(List<PatchOp> ops) {
        ArrayNode patch = Manifests.JSON.createArrayNode();
        for (PatchOp op : ops) {
            ObjectNode o = patch.addObject().put("op", op.op().wire()).put("path", op.path());
            if (op.value() != null) {
                o.set("value", Manifests.JSON.valueToTree(op.value()));
            }
        }
        return patch;
    }

    /**
     * Filter on the nodes in score order until {@link #MIN_FEASIBLE} fit or none are left (kube-scheduler filters
     * every node of a cluster this small, up to {@code minFeasibleNodesToFind}), then the best-scored one.
     */
    private Placement schedule(Pod pod) {
        Map<String, Integer> reasons = new HashMap<>();
        List<Node> order = new ArrayList<>(cluster.nodes());
        Comparator<Node> byShare = Comparator.comparingDouble(n -> cluster.memoryShare(n.getMetadata().getName()));
        order.sort("spread".equals(nodePolicy) ? byShare : byShare.reversed());
        Node best = null;
        AllocationOutcome.Allocated chosen = null;
        int feasible = 0;
        for (Node node : order) {
            AllocationOutcome outcome = allocator.allocate(pod, node);
            if (outcome instanceof AllocationOutcome.Allocated allocated) {
                if (chosen == null) {
                    best = node;
                    chosen = allocated;
                }
                if (++feasible >= MIN_FEASIBLE) {
                    break;
                }
            } else if (outcome instanceof AllocationOutcome.Failed failed) {
                return new Placement.NotPlaced("allocation error: " + failed.reason());
            } else {
                reasons.merge(outcome.reason(), 1, Integer::sum);
            }
        }
        if (chosen != null) {
            return bind(pod, best.getMetadata().getName(), chosen);
        }
        return new Placement.NotPlaced(reasons.entrySet().stream().max(Map.Entry.comparingByValue())
                .map(Map.Entry::getKey).orElse("no DRA node"));
    }

    /** Reserve, PreBind (the claims written), Bind. */
    private Placement bind(Pod pod, String node, AllocationOutcome.Allocated allocated) {
        allocator.reserve(pod, allocated);
        List<ResourceClaim> written = new ArrayList<>();
        for (ClaimAllocation c : allocated.claims()) {
            ResourceClaim claim = c.allocatedFor(pod);
            allocator.putClaim(claim);
            cluster.account(c.allocation(), 1);
            written.add(claim);
        }
        allocator.unreserve(pod);
        written.forEach(c -> writes.bound(c, pod, node));
        Pod bound = new PodBuilder(pod).editSpec().withNodeName(node).endSpec().build();
        pods.put(key(bound), bound);
        return new Placement.Bound(bound, node, allocated.claims().size());
    }

    /**
     * Deletes a pod: the claim controller drops it from its claims' {@code reservedFor}, clears their allocation
     * and deletes the claims it owned (spec §3.6).
     *
     * @return the claims whose allocation was released
     */
    int delete(String namespace, String name) {
        Pod gone = pods.remove(namespace + "/" + name);
        if (gone == null) {
            return 0;
        }
        int released = 0;
        for (var status : gone.getStatus().getResourceClaimStatuses()) {
            Optional<ResourceClaim> claim = allocator.claim(namespace, status.getResourceClaimName());
            if (claim.isEmpty()) {
                continue;
            }
            var outcome = ClaimDeallocation.sync(claim.get(), n -> Optional.ofNullable(pods.get(namespace + "/" + n)));
            if (claim.get().getStatus() != null && claim.get().getStatus().getAllocation() != null
                    && !(outcome instanceof ClaimDeallocation.Outcome.Unchanged)) {
                cluster.account(claim.get().getStatus().getAllocation(), -1);
                released++;
            }
            if (outcome instanceof ClaimDeallocation.Outcome.Deleted) {
                allocator.removeClaim(namespace, status.getResourceClaimName());
                writes.deleted(gone, claim.get(), true);
            } else if (outcome instanceof ClaimDeallocation.Outcome.Updated u) {
                allocator.putClaim(u.claim());
                writes.deleted(gone, u.claim(), false);
            }
        }
        return released;
    }

    /** Every pod, bound or pending. */
    Collection<Pod> pods() {
        return List.copyOf(pods.values());
    }

    /** The claim of a pod as last written. */
    Optional<ResourceClaim> claim(String namespace, String name) {
        return allocator.claim(namespace, name);
    }

    /** Every claim that still exists, allocated or not. */
    List<ResourceClaim> claims() {
        List<ResourceClaim> out = new ArrayList<>();
        created.forEach(k -> allocator.claim(k[0], k[1]).ifPresent(out::add));
        return out;
    }

    /** The usage views (granted memory, cores, shares per card). */
    Collection<NodeView> views() {
        return cluster.views();
    }

    /** Templates created, one per namespace and shape. */
    Collection<ResourceClaimTemplate> templates() {
        return templates.values();
    }

    private static String key(Pod pod) {
        return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }
}
