package io.vgpu.deviceplugin.core.gpu;

import java.util.List;
import java.util.Objects;

/**
 * What NVML reports about one GPU's place in the node's topology, for the pair scores.
 *
 * @param uuid  the GPU
 * @param busId its PCI bus id as NVML prints it
 * @param links its active NVLinks
 */
public record GpuTopology(String uuid, String busId, List<Link> links) {

    /** NVML's remote device type of an NVSwitch. */
    public static final int REMOTE_SWITCH = 2;

    /** Copies the links. */
    public GpuTopology {
        Objects.requireNonNull(uuid, "uuid");
        Objects.requireNonNull(busId, "busId");
        links = List.copyOf(links);
    }

    /**
     * One active NVLink.
     *
     * @param remoteBusId the remote end's PCI bus id; "" when NVML does not report it
     * @param remoteType  NVML's remote device type ({@link #REMOTE_SWITCH} for an NVSwitch); -1 when unreported
     */
    public record Link(String remoteBusId, int remoteType) {

        /** Requires the bus id ("" for unknown). */
        public Link {
            Objects.requireNonNull(remoteBusId, "remoteBusId");
        }
    }
}
