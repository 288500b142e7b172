package io.vgpu.deviceplugin.core.allocate;
import io.vgpu.deviceplugin.core.advertise.DeviceIds;
import io.vgpu.deviceplugin.core.outcome.Outcome;

import io.vgpu.state.model.ContainerDevice;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Steering kubelet's choice of fake device IDs towards the GPUs the scheduler annotated (spec §1.6),
 * and, when that steering is on, following kubelet's choice in {@code Allocate} (spec §2.3 step 3).
 * Pure and thread-safe.
 */
public final class PreferredAllocation {

    /** Error when kubelet's IDs and the annotated entry differ in length. */
    public static final String COUNT_MISMATCH = "device number not matched";

    private PreferredAllocation() {
    }

    /**
     * HAMi {@code GetPreferredAllocation}: the empty (init or non-GPU) entries are dropped, request
     * {@code i} is matched with the {@code i}-th remaining entry, and only successful selections are
     * answered (an answer missing for a request lets kubelet choose by itself).
     *
     * @param annotated the pod's decoded to-allocate entries; a failed lookup or decode means none
     * @param requests  kubelet's container requests, in order
     * @return one ID list per request that could be served, in request order
     */
    public static List<List<String>> answer(Outcome<List<List<ContainerDevice>>> annotated, List<PreferredRequest> requests) {
        List<List<ContainerDevice>> pending = new ArrayList<>();
        if (annotated.isOk()) {
            annotated.value().stream().filter(e -> !e.isEmpty()).forEach(pending::add);
        }
        List<List<String>> out = new ArrayList<>();
        for (int i = 0; i < requests.size() && i < pending.size(); i++) {
            PreferredRequest r = requests.get(i);
            Outcome<List<String>> selected = select(r.available(), r.mustInclude(), pending.get(i), r.allocationSize());
            if (selected.isOk()) {
                out.add(selected.value());
            }
        }
        return List.copyOf(out);
    }

    /**
     * HAMi {@code selectPreferredDeviceIDsFromAnnotatedDevices}: every must-include ID first (each covers
     * one annotated device of its physical GPU); then, for each of the first {@code size} annotated
     * devices not yet covered, the first remaining available ID of that GPU.
     *
     * @return the IDs, or an error naming what could not be satisfied
     */
    public static Outcome<List<String>> select(List<String> available, List<String> mustInclude,
                                               List<ContainerDevice> annotated, int size) {
        if (annotated.size() < size) {
            return Outcome.failed("annotated devices " + annotated.size() + " smaller than requested allocation size " + size);
        }
        if (size < 0) {
            return Outcome.failed("negative allocation size " + size);
        }
        Set<String> required = new HashSet<>(mustInclude);
        Map<String, Integer> coveredByRequired = new HashMap<>();
        List<String> selected = new ArrayList<>(mustInclude);
        for (String id : mustInclude) {
            coveredByRequired.merge(DeviceIds.physicalId(id), 1, Integer::sum);
        }
        Map<String, Deque<String>> availableByGpu = new LinkedHashMap<>();
        for (String id : available) {
            if (!required.contains(id)) {
                availableByGpu.computeIfAbsent(DeviceIds.physicalId(id), k -> new ArrayDeque<>()).add(id);
            }
        }
        for (ContainerDevice device : annotated.subList(0, size)) {
            String gpu = DeviceIds.physicalId(device.uuid());
            int covered = coveredByRequired.getOrDefault(gpu, 0);
            if (covered > 0) {
                coveredByRequired.put(gpu, covered - 1);
                continue;
            }
            Deque<String> candidates = availableByGpu.get(gpu);
            if (candidates == null || candidates.isEmpty()) {
                return Outcome.failed("no available slice device found for annotated GPU " + gpu);
            }
            selected.add(candidates.removeFirst());
        }
        if (selected.size() != size) {
            return Outcome.failed("preferred allocation selected " + selected.size() + " devices, want " + size);
        }
        return Outcome.ok(List.copyOf(selected));
    }

    /**
     * HAMi {@code alignContainerDevicesWithAllocatedIDs}: device {@code i} takes the physical GPU of
     * kubelet's ID {@code i}; memory and cores are kept. Lengths must agree ({@value #COUNT_MISMATCH}).
     */
    public static Outcome<List<ContainerDevice>> alignToKubelet(List<ContainerDevice> entry, List<String> kubeletIds) {
        if (entry.size() != kubeletIds.size()) {
            return Outcome.failed(COUNT_MISMATCH);
        }
        List<ContainerDevice> aligned = new ArrayList<>(entry.size());
        for (int i = 0; i < entry.size(); i++) {
            ContainerDevice d = entry.get(i);
            aligned.add(new ContainerDevice(d.idx(), DeviceIds.physicalId(kubeletIds.get(i)), d.type(), d.usedmem(), d.usedcores()));
        }
        return Outcome.ok(List.copyOf(aligned));
    }
}
