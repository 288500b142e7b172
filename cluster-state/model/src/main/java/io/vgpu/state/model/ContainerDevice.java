package io.vgpu.state.model;

/**
 * One device granted to one container: an element of the pod devices annotation
 * ({@code <uuid>,<type>,<usedmem>,<usedcores>:}). {@code idx} is the NVML index of the card; it is
 * known to Fit but not carried by the annotation (decoded entries have idx 0).
 *
 * @param idx       NVML index of the card
 * @param uuid      GPU UUID
 * @param type      vendor word ({@link Vendor#NVIDIA})
 * @param usedmem   MiB granted
 * @param usedcores SM percent granted
 */
public record ContainerDevice(int idx, String uuid, String type, int usedmem, int usedcores) {

    /** Normalises nulls. */
    public ContainerDevice {
        uuid = uuid == null ? "" : uuid;
        type = type == null ? "" : type;
    }
}
