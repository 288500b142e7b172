package io.vgpu.hamicore;

import java.util.List;

/**
 * A snapshot of one process slot ({@code shrreg_proc_slot_t}) of the region.
 *
 * @param slot        position in {@code procs[]}
 * @param pid         container-namespace PID; 0 marks a dead slot awaiting removal
 * @param hostPid     host PID, 0 until HAMi-core discovered it
 * @param status      1 running, 2 suspended, 0 exited
 * @param seqlock     the slot's sequence counter (odd while {@code used} is being updated); 0 in V0
 * @param used        memory per device, 16 entries
 * @param monitorUsed NVML-reported memory per device, 16 entries
 * @param deviceUtil  utilisation per device, 16 entries
 */
public record ProcessSlot(int slot, int pid, int hostPid, int status, long seqlock, List<DeviceMemory> used,
                          List<Long> monitorUsed, List<DeviceUtil> deviceUtil) {

    public ProcessSlot {
        used = List.copyOf(used);
        monitorUsed = List.copyOf(monitorUsed);
        deviceUtil = List.copyOf(deviceUtil);
    }

    /** Status 0: the process exited (HAMi's monitor skips such slots when summing). */
    public boolean exited() {
        return status == 0;
    }
}
