package io.vgpu.state.model;

/**
 * What one container asks of one vendor (HAMi's {@code ContainerDeviceRequest}).
 *
 * @param nums             number of distinct physical GPUs
 * @param type             vendor word, {@link Vendor#NVIDIA}
 * @param memreq           MiB on each GPU (0 when the percentage applies)
 * @param mempercentagereq percent of each card's memory; {@link #NO_PERCENTAGE} (101) means "use memreq"
 * @param coresreq         percent of each card's SMs (values above 100 are clamped by Fit, not here)
 */
public record ContainerRequest(int nums, String type, int memreq, int mempercentagereq, int coresreq) {

    /** HAMi's sentinel for "no percentage given, {@code memreq} applies". */
    public static final int NO_PERCENTAGE = 101;

    /** Normalises a null type to "". */
    public ContainerRequest {
        type = type == null ? "" : type;
    }

    /** Returns a copy with another {@code coresreq}. */
    public ContainerRequest withCoresreq(int cores) {
        return new ContainerRequest(nums, type, memreq, mempercentagereq, cores);
    }

    /** Returns a copy with another {@code nums}. */
    public ContainerRequest withNums(int n) {
        return new ContainerRequest(n, type, memreq, mempercentagereq, coresreq);
    }
}
