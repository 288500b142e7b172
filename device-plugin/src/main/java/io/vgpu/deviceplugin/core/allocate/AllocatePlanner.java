package io.vgpu.deviceplugin.core.allocate;
import io.vgpu.deviceplugin.core.advertise.DeviceIds;
import io.vgpu.deviceplugin.core.advertise.DeviceInventory;
import io.vgpu.deviceplugin.core.outcome.Outcome;
import io.vgpu.deviceplugin.core.hook.HookFiles;
import io.vgpu.deviceplugin.core.cluster.PodView;

import io.vgpu.state.model.ContainerDevice;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Turns one kubelet {@code Allocate} for a known pod into an {@link AllocatePlan} (spec §2.2–§2.5):
 *
 * <pre>
 *  decode to-allocate ──fail──► Refuse
 *        │
 *  for each container request (in order):
 *     first ID contains "MIG" ─► pass-through: size rule, every ID known ─► runtime answer only
 *     otherwise ─► pop next entry ─► count = #IDs ─► [align to kubelet IDs] ─► runtime answer
 *                                                     + HAMi-core env/mounts (not in mig mode;
 *                                                     there the MIG devices replace the answer later,
 *                                                     see {@link #migResponse})
 *     any rule failing ──────────────────────────────────────────────────────────► Refuse
 *        │
 *  Serve(responses, re-encoded annotation)
 * </pre>
 *
 * Pure apart from the injected UUID source; thread-safe when that is.
 */
public final class AllocatePlanner {

    private final AllocateSettings settings;
    private final Supplier<UUID> uuids;

    /**
     * @param uuids fresh UUIDs for shared-cache file names and CDI response IDs
     *              ({@link UUID#randomUUID()} in production)
     */
    public AllocatePlanner(AllocateSettings settings, Supplier<UUID> uuids) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.uuids = Objects.requireNonNull(uuids, "uuids");
    }

    /** The settings this planner answers with. */
    public AllocateSettings settings() {
        return settings;
    }

    /**
     * @param pod       the pod found through the node lock (or the pending-pod list)
     * @param requests  kubelet's device IDs, one list per container request
     * @param files     which optional HAMi-core files exist
     * @param inventory the devices this plugin serves
     */
    public AllocatePlan plan(PodView pod, List<List<String>> requests, HookFiles files, DeviceInventory inventory) {
        Outcome<List<List<ContainerDevice>>> decoded = AllocationEntries.decode(pod.annotations());
        if (!decoded.isOk()) {
            return new AllocatePlan.Refuse(decoded.error(), List.of());
        }
        List<List<ContainerDevice>> entries = decoded.value();
        List<ContainerResponse> responses = new ArrayList<>();
        List<String> dirs = new ArrayList<>();
        Map<Integer, ContainerTake> takes = new HashMap<>();
        for (List<String> ids : requests) {
            Outcome<ContainerResponse> answer;
            if (!ids.isEmpty() && ids.get(0).contains("MIG")) {
                answer = passThrough(ids, inventory);
            } else {
                Outcome<AllocationEntries.Popped> popped = AllocationEntries.pop(entries, pod.initContainers(), pod.containers());
                if (!popped.isOk()) {
                    return new AllocatePlan.Refuse(popped.error(), dirs);
                }
                entries = popped.value().entriesAfter();
                takes.put(responses.size(), popped.value().taken());
                answer = vgpu(pod, popped.value().taken(), ids, files, inventory, dirs);
            }
            if (!answer.isOk()) {
                return new AllocatePlan.Refuse(answer.error(), dirs);
            }
            responses.add(answer.value());
        }
        return new AllocatePlan.Serve(responses, AllocationEntries.encode(entries), dirs, takes);
    }

    /**
     * A dynamic-MIG container's answer: its MIG devices by UUID to the runtime, nothing of HAMi-core
     * (the instance itself isolates memory and compute).
     */
    public ContainerResponse migResponse(List<String> migUuids) {
        return DeviceResponses.forDevices(migUuids, settings, DeviceInventory.empty(), uuids.get().toString()).build();
    }

    /**
     * True when every request names MIG devices (static MIG strategies): such requests need no HAMi pod.
     */
    public static boolean onlyMigDevices(List<List<String>> requests) {
        return !requests.isEmpty() && requests.stream().allMatch(ids -> !ids.isEmpty() && ids.get(0).contains("MIG"));
    }

    /**
     * The pass-through answers for requests without a HAMi pod (static MIG devices that kube-scheduler
     * placed itself): the same rules as the pass-through branch, nothing read or written on any pod.
     */
    public Outcome<List<ContainerResponse>> passThroughAll(List<List<String>> requests, DeviceInventory inventory) {
        List<ContainerResponse> out = new ArrayList<>();
        for (List<String> ids : requests) {
            Outcome<ContainerResponse> answer = passThrough(ids, inventory);
            if (!answer.isOk()) {
                return Outcome.failed(answer.error());
            }
            out.add(answer.value());
        }
        return Outcome.ok(out);
    }

    /** Upstream static MIG devices: answered as they are; the annotation is not consumed. */
    private Outcome<ContainerResponse> passThrough(List<String> ids, DeviceInventory inventory) {
        if (settings.failRequestsGreaterThanOne() && ids.stream().anyMatch(DeviceIds::isReplica) && ids.size() > 1) {
            return Outcome.failed("request for '" + settings.resourceName() + ": " + ids.size()
                    + "' too large: maximum request size for shared resources is 1");
        }
        for (String id : ids) {
            if (!inventory.knows(id)) {
                return Outcome.failed("invalid allocation request for '" + settings.resourceName() + "': unknown device: " + id);
            }
        }
        return Outcome.ok(DeviceResponses.forDevices(ids, settings, inventory, uuids.get().toString()).build());
    }

    private Outcome<ContainerResponse> vgpu(PodView pod, ContainerTake taken, List<String> kubeletIds, HookFiles files,
                                            DeviceInventory inventory, List<String> dirs) {
        List<ContainerDevice> devices = taken.devices();
        if (devices.size() != kubeletIds.size()) {
            return Outcome.failed(PreferredAllocation.COUNT_MISMATCH);
        }
        if (settings.enableGetPreferredAllocation() && !settings.migMode()) {
            Outcome<List<ContainerDevice>> aligned = PreferredAllocation.alignToKubelet(devices, kubeletIds);
            if (!aligned.isOk()) {
                return Outcome.failed(aligned.error());
            }
            devices = aligned.value();
        }
        List<String> uuidsOfDevices = devices.stream().map(ContainerDevice::uuid).toList();
        DeviceResponses.Builder response = DeviceResponses.forDevices(uuidsOfDevices, settings, inventory, uuids.get().toString());
        if (!settings.migMode()) {
            HamiCoreLimits.addTo(response, devices, pod.uid(), taken.container(), settings, files, uuids.get().toString());
            dirs.add(settings.hookPaths().containerDir(pod.uid(), taken.container().name()));
        }
        return Outcome.ok(response.build());
    }
}
