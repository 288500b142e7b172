package io.vgpu.hamicore;

import java.util.Objects;

/**
 * One active NVLink of a GPU and what is at its other end ({@code nvmlDeviceGetNvLinkRemotePciInfo_v2},
 * {@code nvmlDeviceGetNvLinkRemoteDeviceType}). What NVML cannot report about the remote end is
 * left unknown ({@code ""}, {@link #UNREPORTED}), as HAMi skips such links for that part.
 *
 * @param link        the link number (0 .. {@link #MAX_LINKS} - 1)
 * @param remoteBusId the remote end's PCI bus id as NVML prints it ({@code 00000000:3B:00.0}); "" when unreported
 * @param remoteType  {@link #REMOTE_GPU}, {@link #REMOTE_IBM_NPU}, {@link #REMOTE_SWITCH}, {@link #REMOTE_UNKNOWN}
 *                    or {@link #UNREPORTED}
 */
public record NvLink(int link, String remoteBusId, int remoteType) {

    /** {@code NVML_NVLINK_MAX_LINKS}. */
    public static final int MAX_LINKS = 18;
    /** {@code NVML_NVLINK_DEVICE_TYPE_GPU}. */
    public static final int REMOTE_GPU = 0;
    /** {@code NVML_NVLINK_DEVICE_TYPE_IBMNPU}. */
    public static final int REMOTE_IBM_NPU = 1;
    /** {@code NVML_NVLINK_DEVICE_TYPE_SWITCH}: the link ends at an NVSwitch. */
    public static final int REMOTE_SWITCH = 2;
    /** {@code NVML_NVLINK_DEVICE_TYPE_UNKNOWN}. */
    public static final int REMOTE_UNKNOWN = 255;
    /** NVML did not report the remote device type. */
    public static final int UNREPORTED = -1;

    /** Requires the bus id ("" for unknown). */
    public NvLink {
        Objects.requireNonNull(remoteBusId, "remoteBusId");
    }
}
