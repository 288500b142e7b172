package io.vgpu.state.dra;

import java.util.Objects;

/**
 * A GPU's health as the slice shows it (the node agent's XID policy decides, as in device-plugin mode):
 *
 * <pre>
 *  HEALTHY ──XID critical error naming this GPU, not ignored by the policy──► FATAL_XID (taint NoExecute)
 *     └──────other failure (event registration, NVML wait error, fake file)──► UNHEALTHY (taint NoSchedule)
 * </pre>
 *
 * @param status the kind
 * @param xid    the XID of a {@link Status#FATAL_XID}, else 0
 */
public record GpuHealth(Status status, long xid) {

    /** Serves new shares. */
    public static final GpuHealth HEALTHY = new GpuHealth(Status.HEALTHY, 0);
    /** Serves no new shares; running ones stay. */
    public static final GpuHealth UNHEALTHY = new GpuHealth(Status.UNHEALTHY, 0);

    /** Requires a status. */
    public GpuHealth {
        Objects.requireNonNull(status, "status");
    }

    /** A GPU that raised XID {@code xid}: its shares are evicted. */
    public static GpuHealth fatalXid(long xid) {
        return new GpuHealth(Status.FATAL_XID, xid);
    }

    /** The kinds of health. */
    public enum Status {
        /** No known failure. */
        HEALTHY,
        /** Failed in a way that lets running work go on. */
        UNHEALTHY,
        /** Raised an XID critical error that the policy does not ignore. */
        FATAL_XID
    }
}
