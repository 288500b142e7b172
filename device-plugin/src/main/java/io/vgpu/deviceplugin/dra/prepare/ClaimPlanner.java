package io.vgpu.deviceplugin.dra.prepare;

import io.vgpu.deviceplugin.cdi.DriverLibraries;
import io.vgpu.deviceplugin.cdi.CdiDevice;
import io.vgpu.deviceplugin.cdi.CdiNames;
import io.vgpu.deviceplugin.cdi.CdiSpec;
import io.vgpu.deviceplugin.cdi.ContainerEdits;
import io.vgpu.deviceplugin.core.hook.HookFiles;
import io.vgpu.deviceplugin.core.outcome.Outcome;
import io.vgpu.state.dra.DraNames;
import io.vgpu.state.dra.VgpuConfig;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Decides what NodePrepareResources does for one claim (spec/dra-spec.md §4.3, §5, §6.3), with no
 * I/O: the claim object, the node's GPUs and what the host has are inputs, a {@link PreparedClaim}
 * or the claim's error is the output.
 *
 * <pre>
 *  UID differs from the kubelet's ──► error (the claim was replaced)
 *  no allocation ───────────────────► error
 *  results of this driver: pool = this node, device = a GPU offered here, else ──► error
 *  opaque configs of this driver decode ({@link ClaimConfigs}), else ──► error
 *  per request (main name), its GPUs in PCI order (i = 0, 1, …):
 *      one CDI device "&lt;uid&gt;-&lt;request&gt;-&lt;gpu-N&gt;" with {@link ShareEdits}, one kubelet device
 *      (share ID, our CDI name + the static spec's device when referenced), one {@link Share}
 *  ──► PreparedClaim (one spec for the claim, kind k8s.gpu.vgpu.io/claim)
 * </pre>
 *
 * A result without {@code consumedCapacity} (an exclusive allocation: the API server drops consumable
 * capacity when its gate is off) takes the whole GPU: memory limit = the card, no SM limit, and every
 * capacity in the guard. Thread-safe; pure.
 */
public final class ClaimPlanner {

    private final PrepareSettings settings;
    private final NodeGpus gpus;

    /** @param gpus the GPUs this node offers */
    public ClaimPlanner(PrepareSettings settings, NodeGpus gpus) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.gpus = Objects.requireNonNull(gpus, "gpus");
    }

    /** The node's GPUs. */
    public NodeGpus gpus() {
        return gpus;
    }

    /**
     * @param asked     the claim as the kubelet names it
     * @param claim     the object read from the API server
     * @param libraries how containers get the driver libraries on this node now
     * @param files     which optional HAMi-core files exist on the host
     */
    public Outcome<PreparedClaim> plan(ClaimRef asked, ClaimObject claim, DriverLibraries libraries, HookFiles files) {
        if (!asked.uid().equals(claim.ref().uid())) {
            return Outcome.failed("ResourceClaim " + asked + " has UID " + claim.ref().uid() + ", the kubelet asked for "
                    + asked.uid() + ": the claim was deleted and created again; nothing prepared");
        }
        if (claim.allocation().isEmpty()) {
            return Outcome.failed("ResourceClaim " + asked + " is not allocated (no status.allocation); nothing prepared");
        }
        ClaimObject.Allocation allocation = claim.allocation().get();
        List<ClaimObject.Result> own = allocation.results().stream().filter(r -> DraNames.DRIVER.equals(r.driver())).toList();
        for (ClaimObject.Result r : own) {
            Optional<String> bad = refuse(r, libraries);
            if (bad.isPresent()) {
                return Outcome.failed("ResourceClaim " + asked + " request " + r.request() + ": " + bad.get());
            }
        }
        return ClaimConfigs.decode(allocation.configs()).then(configs -> build(asked, own, configs, libraries, files));
    }

    private Optional<String> refuse(ClaimObject.Result r, DriverLibraries libraries) {
        if (!settings.nodeName().equals(r.pool())) {
            return Optional.of("device " + r.device() + " is in pool " + r.pool() + ", but this driver serves pool "
                    + settings.nodeName() + " only");
        }
        Optional<NodeGpu> gpu = gpus.byName(r.device());
        if (gpu.isEmpty()) {
            return Optional.of("device " + r.device() + " is not a GPU that node " + settings.nodeName() + " offers (offered: "
                    + String.join(", ", gpus.all().stream().map(NodeGpu::deviceName).toList()) + ")");
        }
        return libraries.missing(settings.libraries(), gpu.get().minor(), gpu.get().deviceName());
    }

    private Outcome<PreparedClaim> build(ClaimRef ref, List<ClaimObject.Result> own, ClaimConfigs configs,
                                         DriverLibraries libraries, HookFiles files) {
        String claimDir = settings.claimDir(ref.uid());
        Map<String, List<ClaimObject.Result>> byRequest = new LinkedHashMap<>();
        own.forEach(r -> byRequest.computeIfAbsent(r.mainRequest(), k -> new ArrayList<>()).add(r));
        List<CdiDevice> cdiDevices = new ArrayList<>();
        Map<ClaimObject.Result, String> cdiNames = new LinkedHashMap<>();
        List<Share> shares = new ArrayList<>();
        try {
            for (Map.Entry<String, List<ClaimObject.Result>> request : byRequest.entrySet()) {
                List<ClaimObject.Result> ordered = inContainerOrder(request.getValue());
                Set<String> seen = new HashSet<>();
                for (ClaimObject.Result r : ordered) {
                    if (!seen.add(r.device())) {
                        return Outcome.failed("ResourceClaim " + ref + " request " + request.getKey() + " has device "
                                + r.device() + " twice");
                    }
                }
                List<String> visible = ordered.stream().map(r -> gpu(r).uuid()).toList();
                String cacheFile = claimDir + "/" + request.getKey() + ".cache";
                for (int i = 0; i < ordered.size(); i++) {
                    ClaimObject.Result r = ordered.get(i);
                    NodeGpu gpu = gpu(r);
                    VgpuConfig config = configs.forRequest(r.request(), r.mainRequest());
                    ContainerEdits edits = r.adminAccess() ? ShareEdits.adminAccess(gpu, visible)
                            : ShareEdits.limited(settings, files, claimDir, gpu, i, visible, memory(r, gpu),
                            r.consumedCapacity().getOrDefault(Capacities.CORES, 0L), cacheFile, config);
                    CdiDevice device = new CdiDevice(ref.uid() + "-" + request.getKey() + "-" + r.device(), edits);
                    cdiDevices.add(device);
                    cdiNames.put(r, CdiNames.qualified(DraNames.CDI_KIND, device.name()));
                    if (!r.adminAccess()) {
                        shares.add(share(r, gpu));
                    }
                }
            }
            Optional<CdiSpec> spec = cdiDevices.isEmpty() ? Optional.empty()
                    : Optional.of(new CdiSpec(DraNames.CDI_KIND, cdiDevices, ContainerEdits.NONE));
            List<KubeletDevice> devices = new ArrayList<>();
            for (ClaimObject.Result r : own) {
                List<String> ids = new ArrayList<>();
                ids.add(cdiNames.get(r));
                libraries.device(gpu(r).minor()).ifPresent(ids::add);
                devices.add(new KubeletDevice(List.of(r.mainRequest()), r.pool(), r.device(), ids, r.shareId()));
            }
            return Outcome.ok(new PreparedClaim(ref, devices, spec, CdiNames.transientFileName(DraNames.CDI_KIND, ref.uid()),
                    claimDir, List.copyOf(byRequest.keySet()), shares));
        } catch (IllegalArgumentException e) {
            return Outcome.failed("ResourceClaim " + ref + ": cannot write a CDI spec for it: " + e.getMessage());
        }
    }

    /** The request's results in the order the container's NVML numbers the GPUs: PCI address when every GPU has one, else NVML index. */
    private List<ClaimObject.Result> inContainerOrder(List<ClaimObject.Result> results) {
        boolean allPci = results.stream().allMatch(r -> gpu(r).pciBusId().isPresent());
        Comparator<ClaimObject.Result> order = allPci
                ? Comparator.comparing(r -> gpu(r).pciBusId().orElseThrow())
                : Comparator.comparingInt(r -> gpu(r).index());
        return results.stream().sorted(order.thenComparingInt(r -> gpu(r).minor())).toList();
    }

    private NodeGpu gpu(ClaimObject.Result r) {
        return gpus.byName(r.device()).orElseThrow();
    }

    private static long memory(ClaimObject.Result r, NodeGpu gpu) {
        return r.consumedCapacity().getOrDefault(Capacities.MEMORY, gpu.memoryBytes());
    }

    private static Share share(ClaimObject.Result r, NodeGpu gpu) {
        if (r.shareId().isEmpty()) {
            return new Share(gpu.deviceName(), Optional.empty(), gpu.memoryBytes(), gpu.cores(), gpu.slots());
        }
        Map<String, Long> used = r.consumedCapacity();
        return new Share(gpu.deviceName(), r.shareId(), memory(r, gpu), used.getOrDefault(Capacities.CORES, 0L),
                used.getOrDefault(Capacities.SLOTS, 0L));
    }
}
