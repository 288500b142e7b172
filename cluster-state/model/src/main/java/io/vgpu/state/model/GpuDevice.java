package io.vgpu.state.model;

import java.util.List;

/**
 * One physical GPU as the node's device plugin registers it in {@code hami.io/node-nvidia-register}
 * (HAMi's {@code DeviceInfo}). Immutable; the vendor is always {@link Vendor#NVIDIA}.
 *
 * @param id          GPU UUID
 * @param index       NVML index
 * @param count       split count: how many allocations the card accepts at once
 * @param devmem      memory in MiB after the plugin's scaling
 * @param devcore     SM capacity in percent (100 per card unless scaled)
 * @param type        model name, e.g. {@code NVIDIA-Tesla V100-PCIE-32GB}
 * @param numa        NUMA node (0 when unknown)
 * @param mode        {@code hami-core}, {@code mig}, {@code mps}, or "" when not registered
 * @param migProfiles MIG profiles (only in {@code mig} mode)
 * @param health      whether the plugin reports the card healthy
 */
public record GpuDevice(String id, int index, int count, int devmem, int devcore, String type, int numa,
                        String mode, List<MigProfile> migProfiles, boolean health) {

    /** Normalises nulls to empty values, copies lists. */
    public GpuDevice {
        id = id == null ? "" : id;
        type = type == null ? "" : type;
        mode = mode == null ? "" : mode;
        migProfiles = migProfiles == null ? List.of() : List.copyOf(migProfiles);
    }

    /** Returns true when the card is partitioned with MIG. */
    public boolean isMig() {
        return "mig".equals(mode);
    }
}
