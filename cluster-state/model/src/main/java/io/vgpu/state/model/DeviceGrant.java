package io.vgpu.state.model;

/**
 * A pod's effective charge on one device after collapsing its containers (spec §8.2): what the node
 * usage view adds for that pod.
 *
 * @param uuid      GPU UUID
 * @param type      vendor word
 * @param usedmem   MiB charged
 * @param usedcores SM percent charged
 * @param slots     allocation slots charged (≥ 1)
 */
public record DeviceGrant(String uuid, String type, int usedmem, int usedcores, int slots) {

    /** Normalises nulls. */
    public DeviceGrant {
        uuid = uuid == null ? "" : uuid;
        type = type == null ? "" : type;
    }
}
