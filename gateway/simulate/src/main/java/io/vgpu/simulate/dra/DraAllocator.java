package io.vgpu.simulate.dra;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.vgpu.simulate.dra.cel.DeviceSelectors;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A stand-in for kube-scheduler's {@code DynamicResources} plugin with the structured allocator of
 * Kubernetes 1.36 (the "incubating" one; spec §3), for the simulator. It keeps the objects the scheduler
 * watches — ResourceSlices, DeviceClasses, ResourceClaims — plus the in-flight allocations the simulator
 * {@link #reserve reserves}, and answers, for one pod and one node, which devices its claims get.
 *
 * <pre>
 *   putSlice / putClass / putClaim ...   keep the view current (allocated claims count as used)
 *   allocate(pod, node)                  PreFilter + Filter: an outcome, nothing changed
 *   reserve(pod, allocated)              Reserve: its devices now count as used for other pods
 *   putClaim(allocation.allocatedFor(pod)) for each claim, then unreserve(pod)     PreBind
 *   unreserve(pod)                        Unreserve, when the placement is abandoned
 *   ClaimDeallocation.sync(claim, pods)  the claim controller, when pods end
 * </pre>
 * Side-effect free apart from that view: {@link #allocate} never changes it. Deterministic for a given
 * {@link ShareIds} source and {@link Clock} (which stamps {@code allocationTimestamp}). Objects are treated
 * as immutable once put (put a changed copy again; selector results and the allocated state are cached
 * until then). Not thread-safe: drive it from one thread.
 */
public final class DraAllocator {

    /** Upstream's {@code ResourceClaimReservedForMaxSize}. */
    static final int MAX_RESERVED_FOR = 256;

    private final ShareIds shareIds;
    private final Clock clock;
    private final SelectorMemo selectors;
    private final Map<String, ResourceSlice> slices = new LinkedHashMap<>();
    private final Map<String, DeviceClass> classes = new HashMap<>();
    private final Map<String, ResourceClaim> claims = new LinkedHashMap<>();
    private final Map<String, InFlight> inFlight = new LinkedHashMap<>();
    /** What allocated claims and in-flight allocations hold, kept in step with both. */
    private final AllocatedState allocated = AllocatedState.of(List.of());
    /** Each node's pools and candidates in search order; dropped when slices change. */
    private final Map<List<Object>, NodeView> nodeViews = new HashMap<>();

    /** An allocator drawing share IDs from {@code shareIds}, stamping times from {@code clock}. */
    public DraAllocator(ShareIds shareIds, Clock clock) {
        this(shareIds, clock, new DeviceSelectors());
    }

    /** As above, with a selector environment of one's own (for example another cost limit). */
    public DraAllocator(ShareIds shareIds, Clock clock, DeviceSelectors selectors) {
        this.shareIds = shareIds;
        this.clock = clock;
        this.selectors = new SelectorMemo(selectors);
    }

    /** Adds or replaces a slice (by name). */
    public void putSlice(ResourceSlice slice) {
        slices.put(slice.getMetadata().getName(), slice);
        selectors.clear();
        nodeViews.clear();
    }

    /** Removes a slice; unknown names are ignored. */
    public void removeSlice(String name) {
        slices.remove(name);
        selectors.clear();
        nodeViews.clear();
    }

    /** Adds or replaces a device class (by name). */
    public void putClass(DeviceClass deviceClass) {
        classes.put(deviceClass.getMetadata().getName(), deviceClass);
    }

    /** Removes a device class; unknown names are ignored. */
    public void removeClass(String name) {
        classes.remove(name);
    }

    /** Adds or replaces a claim (by namespace and name); an allocated claim counts as using its devices. */
    public void putClaim(ResourceClaim claim) {
        ResourceClaim old = claims.put(key(claim.getMetadata().getNamespace(), claim.getMetadata().getName()), claim);
        allocated.remove(allocationOf(old));
        allocated.add(allocationOf(claim));
    }

    /** Removes a claim; unknown names are ignored. */
    public void removeClaim(String namespace, String name) {
        allocated.remove(allocationOf(claims.remove(key(namespace, name))));
    }

    /** The claim as last put, if any. */
    public Optional<ResourceClaim> claim(String namespace, String name) {
        return Optional.ofNullable(claims.get(key(namespace, name)));
    }

    /**
     * Decides whether {@code pod}'s claims can be allocated on {@code node} (PreFilter + Filter). Claims
     * already allocated must be usable on the node; the others are allocated together, in the pod's
     * order, plus the extended-resource claim when the pod asks for DRA-backed extended resources the
     * node does not advertise. Changes nothing; see {@link #reserve}.
     */
    public AllocationOutcome allocate(Pod pod, Node node) {
        try {
            PodClaims.Resolution resolution = PodClaims.resolve(pod, node, claims, classes, inFlightClaims(pod));
            if (resolution instanceof PodClaims.Resolution.NotHere notHere) {
                return new AllocationOutcome.Unschedulable(notHere.reason());
            }
            PodClaims.Resolution.ToAllocate toAllocate = (PodClaims.Resolution.ToAllocate) resolution;
            return toAllocate.claims().isEmpty() ? new AllocationOutcome.Allocated(List.of())
                    : allocateClaims(toAllocate, node);
        } catch (AllocationError e) {
            return new AllocationOutcome.Failed(e.getMessage());
        } catch (IllegalArgumentException | ArithmeticException e) {
            return new AllocationOutcome.Failed("invalid quantity in a slice or claim: " + e.getMessage());
        }
    }

    /**
     * Marks {@code allocated} as in flight for {@code pod} (Reserve): its devices count as used by every
     * later {@link #allocate} until {@link #unreserve}. Reserving a pod again replaces its earlier entry.
     */
    public void reserve(Pod pod, AllocationOutcome.Allocated allocated) {
        unreserve(pod);
        inFlight.put(pod.getMetadata().getUid(), new InFlight(allocated.claims()));
        allocated.claims().forEach(c -> this.allocated.add(c.allocation()));
    }

    /** Drops {@code pod}'s in-flight allocations (after its claims were written, or when abandoned). Idempotent. */
    public void unreserve(Pod pod) {
        InFlight dropped = inFlight.remove(pod.getMetadata().getUid());
        if (dropped != null) {
            dropped.claims().forEach(c -> allocated.remove(c.allocation()));
        }
    }

    private AllocationOutcome allocateClaims(PodClaims.Resolution.ToAllocate toAllocate, Node node) {
        NodeView view = nodeViews.computeIfAbsent(List.of(node.getMetadata().getName(),
                Nulls.map(node.getMetadata().getLabels())), k -> NodeView.of(slices.values(), node));
        Attempt attempt = new Attempt(node, view, classes, allocated, selectors);
        List<ClaimPlan> plans = attempt.run(toAllocate.claims(), shareIds::next);
        if (plans == null) {
            return new AllocationOutcome.Unschedulable(attempt.sawInvalidPool()
                    ? "cannot allocate all claims; invalid resource pools were encountered"
                    : "cannot allocate all claims");
        }
        String now = clock.instant().truncatedTo(ChronoUnit.SECONDS).toString();
        List<ClaimAllocation> out = new ArrayList<>();
        for (ClaimPlan plan : plans) {
            AllocationResult result = new AllocationResultBuilder(ResultBuilder.build(plan, node.getMetadata().getName()))
                    .withAllocationTimestamp(now).build();
            boolean extended = toAllocate.extended().isPresent() && plan.claim == toAllocate.extended().get().claim();
            out.add(new ClaimAllocation(plan.claim, result,
                    extended ? toAllocate.extended().get().mappings() : List.of()));
        }
        return new AllocationOutcome.Allocated(out);
    }

    private static AllocationResult allocationOf(ResourceClaim claim) {
        return claim == null || claim.getStatus() == null ? null : claim.getStatus().getAllocation();
    }

    private Map<String, String> inFlightClaims(Pod pod) {
        Map<String, String> owners = new HashMap<>();
        inFlight.forEach((uid, f) -> f.claims().forEach(c -> {
            if (c.claim().getMetadata().getName() != null) {
                owners.put(key(c.claim().getMetadata().getNamespace(), c.claim().getMetadata().getName()), uid);
            }
        }));
        owners.values().removeIf(uid -> uid.equals(pod.getMetadata().getUid()));
        return owners;
    }

    static String key(String namespace, String name) {
        return namespace + "/" + name;
    }

    private record InFlight(List<ClaimAllocation> claims) {
    }
}
