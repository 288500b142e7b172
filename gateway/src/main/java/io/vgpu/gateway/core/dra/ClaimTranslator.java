package io.vgpu.gateway.core.dra;

import io.vgpu.gateway.core.Container;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.state.model.ContainerRequest;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.core.request.Quantity;
import io.vgpu.gateway.core.request.RequestDeriver;
import io.vgpu.gateway.core.request.ResourceLookup;
import io.vgpu.gateway.core.webhook.ContainerMutation;
import io.vgpu.gateway.core.webhook.NvidiaMutation;
import io.vgpu.gateway.core.webhook.PatchOp;
import io.vgpu.gateway.core.port.CardSizes;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.dra.CorePolicy;
import io.vgpu.state.dra.DraNames;
import io.vgpu.state.dra.SliceBuilder;
import io.vgpu.state.dra.VgpuConfig;
import io.vgpu.state.dra.VgpuConfigCodec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;

/**
 * Turns a HAMi-style pod into a DRA one (issue 13 item 1; docs/dra.md has the table). Each container asking for
 * GPUs becomes one request, named after the container, of one claim made from a {@link ClaimTemplate}:
 * <ul>
 *   <li>HAMi's admission defaults first, as the device-plugin path applies them ({@link NvidiaMutation}: the
 *       default GPU count, cores 100 for an exclusive container, the percentage check) and then HAMi's request
 *       rules ({@link RequestDeriver}: memory factor, default memory and cores);</li>
 *   <li>{@code exactly{deviceClassName, ExactCount, count}} with capacity {@code memory} (MiB × 2^20) and
 *       {@code cores} (clamped to 0–100) always, and {@code slots: 1000} when cores are 100 (the whole card);</li>
 *   <li>a memory percentage: {@code firstAvailable}, one subrequest per card size in the cluster (ascending), each
 *       selecting that size and asking ⌊size × pct / 100⌋ MiB (at least 1); refused with no or more than
 *       {@value #MAX_SUBREQUESTS} sizes;</li>
 *   <li>the filter annotations as CEL selectors ({@link CelSelectors}); for more than one GPU,
 *       {@code distinctAttribute} on the uuid and, with {@code nvidia.com/numa-bind}, {@code matchAttribute} on
 *       the NUMA node;</li>
 *   <li>the task priority (the priority resource in limits) and the core policy ({@code gpuCorePolicy}) as the
 *       opaque {@code VgpuConfig} of that request, instead of environment variables.</li>
 * </ul>
 * The patch removes the HAMi resources from limits and requests, adds {@code resources.claims} to each GPU container,
 * the claim to {@code spec.resourceClaims} (appending to lists the pod already has) and the label
 * {@value ClaimTemplate#POD_LABEL}. The scheduler name and runtime class are left alone. Pure and thread-safe.
 */
public final class ClaimTranslator {

    /** The name of the pod's claim entry (suffixed when the pod already uses it). */
    static final String POD_CLAIM = "vgpu";
    /** DRA's limit on the subrequests of one {@code firstAvailable} list. */
    static final int MAX_SUBREQUESTS = 8;
    /** DRA's limit on requests, and on allocated devices, of one claim. */
    static final int MAX_PER_CLAIM = 32;

    private static final long EXCLUSIVE_CORES = 100;
    private static final String UUID_ATTRIBUTE = DraNames.DRIVER + "/uuid";
    private static final String NUMA_ATTRIBUTE = DraNames.DRIVER + "/numa";

    private final NvidiaConfig nvidia;
    private final DraConfig dra;
    private final NvidiaMutation mutation;
    private final RequestDeriver deriver;

    /**
     * @param nvidia the NVIDIA device config (resource names and HAMi's defaults)
     * @param dra    the DeviceClass to request
     */
    public ClaimTranslator(NvidiaConfig nvidia, DraConfig dra) {
        this.nvidia = nvidia;
        this.dra = dra;
        this.mutation = new NvidiaMutation(nvidia);
        this.deriver = new RequestDeriver(nvidia);
    }

    /**
     * Translates one pod that targets DRA.
     *
     * @param pod       the pod from the AdmissionReview
     * @param existing  the DRA fields it already has
     * @param cardSizes the distinct card memory sizes in the cluster (read only for {@code gpumem-percentage})
     */
    public DraTranslation translate(PodSpec pod, ExistingClaims existing, CardSizes cardSizes) {
        if (pod.containers().isEmpty()) {
            return new DraTranslation.Refused("pod has no containers");
        }
        List<Map<String, Object>> requests = new ArrayList<>();
        List<Map<String, Object>> constraints = new ArrayList<>();
        List<Map<String, Object>> configs = new ArrayList<>();
        List<PatchOp> patch = new ArrayList<>();
        String claimName = claimName(existing);
        long memory = 0;
        long cores = 0;
        long devices = 0;
        List<String> selectors = CelSelectors.of(pod.annotations());
        boolean numaBind = io.vgpu.gateway.core.fit.AnnotationFilters.numaBindEnabled(
                pod.annotation(HamiAnnotations.NUMA_BIND));
        List<Slot> slots = Stream.concat(
                indexed(pod.initContainers(), true).stream(), indexed(pod.containers(), false).stream()).toList();
        for (Slot slot : slots) {
            Container c = slot.container;
            if (!asksForGpu(c)) {
                continue;
            }
            ContainerMutation mutated = mutation.mutate(c, null);
            if (mutated instanceof ContainerMutation.Rejected r) {
                return new DraTranslation.Refused(r.message());
            }
            Container withDefaults = new Container(c.name(), ((ContainerMutation.Mutated) mutated).after().limits(),
                    c.requests(), c.privileged(), c.env());
            Optional<ContainerRequest> derived = deriver.derive(withDefaults);
            if (derived.isEmpty()) {
                return new DraTranslation.Refused(untranslatable(withDefaults));
            }
            ContainerRequest r = derived.get();
            long count = r.nums();
            long share = Math.max(0, Math.min(EXCLUSIVE_CORES, r.coresreq()));
            Map<String, Object> request = new LinkedHashMap<>();
            request.put("name", c.name());
            if (r.memreq() > 0) {
                request.put("exactly", exact(count, selectors, capacity(r.memreq(), share)));
                memory += count * r.memreq();
            } else {
                java.util.SortedSet<Long> sizes = cardSizes.memoryMiB();
                Optional<String> problem = sizesProblem(c, sizes);
                if (problem.isPresent()) {
                    return new DraTranslation.Refused(problem.get());
                }
                List<Object> alternatives = new ArrayList<>();
                long largest = 0;
                for (long size : sizes) {
                    long mib = Math.max(1, size * r.mempercentagereq() / 100);
                    largest = Math.max(largest, mib);
                    List<String> withSize = new ArrayList<>(selectors);
                    withSize.add(0, CelSelectors.memoryIs(size));
                    Map<String, Object> sub = new LinkedHashMap<>();
                    sub.put("name", "card-" + size + "mi");
                    sub.putAll(exact(count, withSize, capacity(mib, share)));
                    alternatives.add(sub);
                }
                request.put("firstAvailable", alternatives);
                memory += count * largest;
            }
            requests.add(request);
            cores += count * share;
            devices += count;
            if (count > 1) {
                constraints.add(constraint(c.name(), "distinctAttribute", UUID_ATTRIBUTE));
                if (numaBind) {
                    constraints.add(constraint(c.name(), "matchAttribute", NUMA_ATTRIBUTE));
                }
            }
            vgpuConfig(c).ifPresent(json -> configs.add(config(c.name(), json)));
            patchContainer(patch, slot, existing, claimName);
        }
        if (requests.isEmpty()) {
            return new DraTranslation.NoGpu();
        }
        Optional<String> refused = podProblem(pod, requests.size(), devices);
        if (refused.isPresent()) {
            return new DraTranslation.Refused(refused.get());
        }
        ClaimTemplate template = ClaimTemplate.of(pod.namespace(), templateSpec(requests, constraints, configs));
        patchPod(patch, pod, existing, claimName, template.name());
        return new DraTranslation.Translated(template, patch, warnings(pod), memory, cores);
    }

    /** A count, memory, percentage or cores resource in limits or requests (the priority alone is no GPU). */
    private boolean asksForGpu(Container c) {
        return Stream.of(nvidia.resourceCountName(), nvidia.resourceMemoryName(),
                nvidia.resourceMemoryPercentageName(), nvidia.resourceCoreName())
                .anyMatch(name -> ResourceLookup.present(c, name));
    }

    private String untranslatable(Container c) {
        String count = nvidia.resourceCountName();
        Optional<Quantity> n = ResourceLookup.find(c, count);
        if (n.isEmpty()) {
            return "container " + c.name() + " asks for GPU memory or cores without " + count
                    + " (defaultGPUNum is 0): add " + count;
        }
        if (n.get().asInt64().orElse(0) <= 0) {
            return "container " + c.name() + ": " + count + " must be a positive whole number, got " + n.get().text();
        }
        Optional<Quantity> m = ResourceLookup.find(c, nvidia.resourceMemoryName());
        return "container " + c.name() + ": " + nvidia.resourceMemoryName() + " must be a whole number of MiB"
                + m.map(q -> ", got " + q.text()).orElse("");
    }

    private static Optional<String> sizesProblem(Container c, java.util.SortedSet<Long> sizes) {
        if (sizes.isEmpty()) {
            return Optional.of("container " + c.name() + " asks for a percentage of GPU memory, but no card size is "
                    + "known in the cluster yet; ask for memory in MiB instead");
        }
        if (sizes.size() > MAX_SUBREQUESTS) {
            return Optional.of("container " + c.name() + " asks for a percentage of GPU memory, but the cluster has "
                    + sizes.size() + " card sizes and a DRA claim can list at most " + MAX_SUBREQUESTS
                    + " alternatives; ask for memory in MiB instead");
        }
        return Optional.empty();
    }

    private Optional<String> podProblem(PodSpec pod, int requests, long devices) {
        Optional<String> privileged = Stream.concat(pod.initContainers().stream(), pod.containers().stream())
                .filter(Container::privileged).map(Container::name).findFirst();
        if (privileged.isPresent()) {
            return Optional.of("container " + privileged.get() + " is privileged");
        }
        if (!pod.nodeName().isEmpty()) {
            return Optional.of("pod has node assigned: DRA claims are allocated by kube-scheduler, which a pod with "
                    + "spec.nodeName skips");
        }
        if (requests > MAX_PER_CLAIM || devices > MAX_PER_CLAIM) {
            return Optional.of("pod asks for " + devices + " GPUs in " + requests + " containers; a DRA claim holds "
                    + "at most " + MAX_PER_CLAIM + " of each");
        }
        return Optional.empty();
    }

    private Map<String, Object> exact(long count, List<String> selectors, Map<String, Object> capacity) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("deviceClassName", dra.deviceClassName());
        m.put("allocationMode", "ExactCount");
        m.put("count", count);
        if (!selectors.isEmpty()) {
            m.put("selectors", selectors.stream().map(e -> Map.of("cel", Map.of("expression", e))).toList());
        }
        m.put("capacity", Map.of("requests", capacity));
        return m;
    }

    private static Map<String, Object> capacity(long memoryMiB, long cores) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(SliceBuilder.MEMORY, memoryMiB + "Mi");
        m.put(SliceBuilder.CORES, Long.toString(cores));
        if (cores == EXCLUSIVE_CORES) {
            m.put(SliceBuilder.SLOTS, Long.toString(SliceBuilder.SLOTS_PER_GPU));
        }
        return m;
    }

    private static Map<String, Object> constraint(String request, String kind, String attribute) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("requests", List.of(request));
        m.put(kind, attribute);
        return m;
    }

    private Optional<String> vgpuConfig(Container c) {
        OptionalInt priority = OptionalInt.empty();
        if (ResourceLookup.inLimits(c, nvidia.resourcePriorityName())) {
            var p = Quantity.parse(c.limits().get(nvidia.resourcePriorityName())).value();
            if (p.isPresent() && p.getAsLong() >= 0 && p.getAsLong() <= Integer.MAX_VALUE) {
                priority = OptionalInt.of((int) p.getAsLong());
            }
        }
        Optional<CorePolicy> policy = CorePolicy.parse(nvidia.gpuCorePolicy())
                .filter(p -> p != CorePolicy.DEFAULT);
        VgpuConfig config = new VgpuConfig(priority, policy);
        return config.equals(VgpuConfig.EMPTY) ? Optional.empty() : Optional.of(VgpuConfigCodec.encode(config));
    }

    private static Map<String, Object> config(String request, String parameters) {
        Map<String, Object> opaque = new LinkedHashMap<>();
        opaque.put("driver", DraNames.DRIVER);
        opaque.put("parameters", new RawJson(parameters));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("requests", List.of(request));
        m.put("opaque", opaque);
        return m;
    }

    private static Map<String, Object> templateSpec(List<Map<String, Object>> requests,
                                                    List<Map<String, Object>> constraints,
                                                    List<Map<String, Object>> configs) {
        Map<String, Object> devices = new LinkedHashMap<>();
        devices.put("requests", requests);
        if (!constraints.isEmpty()) {
            devices.put("constraints", constraints);
        }
        if (!configs.isEmpty()) {
            devices.put("config", configs);
        }
        return Map.of("spec", Map.of("devices", devices));
    }

    private List<String> warnings(PodSpec pod) {
        List<String> out = new ArrayList<>();
        String gpuPolicy = pod.annotation(HamiAnnotations.GPU_SCHEDULER_POLICY);
        if (gpuPolicy != null) {
            out.add(HamiAnnotations.GPU_SCHEDULER_POLICY + "=" + gpuPolicy + " is not applied in DRA mode: "
                    + "kube-scheduler takes the first GPU of a node that fits (no binpack, spread or topology-aware "
                    + "choice between GPUs)");
        }
        String nodePolicy = pod.annotation(HamiAnnotations.NODE_SCHEDULER_POLICY);
        if (nodePolicy != null) {
            out.add(HamiAnnotations.NODE_SCHEDULER_POLICY + "=" + nodePolicy + " is not applied in DRA mode: "
                    + "kube-scheduler scores the nodes itself");
        }
        if (pod.annotation(HamiAnnotations.DEVICE_SCORING_WEIGHTS) != null) {
            out.add(HamiAnnotations.DEVICE_SCORING_WEIGHTS + " is not applied in DRA mode: kube-scheduler does "
                    + "not score GPUs");
        }
        String policy = nvidia.gpuCorePolicy();
        if (!policy.isEmpty() && CorePolicy.parse(policy).isEmpty()) {
            out.add("gpuCorePolicy \"" + policy + "\" is not one of default, force, disable: not passed to the "
                    + "DRA driver");
        }
        return out;
    }

    private String claimName(ExistingClaims existing) {
        List<String> taken = existing.podClaimNames().orElse(List.of());
        String name = POD_CLAIM;
        for (int i = 1; taken.contains(name); i++) {
            name = POD_CLAIM + "-" + i;
        }
        return name;
    }

    private void patchContainer(List<PatchOp> patch, Slot slot, ExistingClaims existing, String claimName) {
        String base = io.vgpu.gateway.core.webhook.JsonPointer.of("spec",
                slot.init ? "initContainers" : "containers", slot.index) + "/resources";
        Container c = slot.container;
        for (String name : hamiNames()) {
            if (c.limits().containsKey(name)) {
                patch.add(PatchOp.remove(base + "/limits/" + io.vgpu.gateway.core.webhook.JsonPointer.escape(name)));
            }
            if (c.requests().containsKey(name)) {
                patch.add(PatchOp.remove(base + "/requests/" + io.vgpu.gateway.core.webhook.JsonPointer.escape(name)));
            }
        }
        Map<String, Object> claim = new LinkedHashMap<>();
        claim.put("name", claimName);
        claim.put("request", c.name());
        if (existing.hasClaims(slot.init, slot.index)) {
            patch.add(PatchOp.add(base + "/claims/-", java.util.Collections.unmodifiableMap(claim)));
        } else {
            patch.add(PatchOp.add(base + "/claims", List.of(java.util.Collections.unmodifiableMap(claim))));
        }
    }

    private List<String> hamiNames() {
        return Stream.of(nvidia.resourceCountName(), nvidia.resourceMemoryName(),
                nvidia.resourceMemoryPercentageName(), nvidia.resourceCoreName(), nvidia.resourcePriorityName())
                .filter(n -> !n.isEmpty()).distinct().sorted().toList();
    }

    private static void patchPod(List<PatchOp> patch, PodSpec pod, ExistingClaims existing, String claimName,
                                 String templateName) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("name", claimName);
        entry.put("resourceClaimTemplateName", templateName);
        Map<String, Object> frozen = java.util.Collections.unmodifiableMap(entry);
        if (existing.podClaimNames().isPresent()) {
            patch.add(PatchOp.add("/spec/resourceClaims/-", frozen));
        } else {
            patch.add(PatchOp.add("/spec/resourceClaims", List.of(frozen)));
        }
        patch.add(metadataEntry(pod.labels().isEmpty(), "labels", ClaimTemplate.POD_LABEL, templateName));
    }

    /**
     * The op adding {@code key: value} to the pod's annotations (e.g. a quota ticket): the whole map when the pod
     * has none, else the one member.
     */
    public static PatchOp annotationOp(PodSpec pod, String key, String value) {
        return metadataEntry(pod.annotations().isEmpty(), "annotations", key, value);
    }

    private static PatchOp metadataEntry(boolean mapAbsent, String field, String key, String value) {
        if (mapAbsent) {
            return PatchOp.add("/metadata/" + field, Map.of(key, value));
        }
        return PatchOp.add("/metadata/" + field + "/" + io.vgpu.gateway.core.webhook.JsonPointer.escape(key), value);
    }

    private static List<Slot> indexed(List<Container> containers, boolean init) {
        List<Slot> out = new ArrayList<>();
        for (int i = 0; i < containers.size(); i++) {
            out.add(new Slot(containers.get(i), init, i));
        }
        return out;
    }

    private record Slot(Container container, boolean init, int index) {
    }
}
