package io.vgpu.hamicore;

import java.util.List;
import java.util.Objects;

/**
 * One MIG GPU-instance profile a GPU supports ({@code nvmlDeviceGetGpuInstanceProfileInfo}) with the
 * placements NVML allows for it ({@code nvmlDeviceGetGpuInstancePossiblePlacements_v2}).
 *
 * <p>NVML knows a profile by two numbers: the {@code NVML_GPU_INSTANCE_PROFILE_*} constant it is asked
 * for ({@link #profile()}, the constants below) and the id it answers with ({@link #id()},
 * {@code nvidia-smi mig -lgip}'s "ID"), which the calls that create, place and list instances take.
 * The {@code REV1} profiles carry the media extensions ({@code +me}), {@code REV2} a single compute
 * slice with twice the memory (e.g. {@code 1g.20gb} on an H100 80GB).
 *
 * @param profile             the {@code NVML_GPU_INSTANCE_PROFILE_*} constant
 * @param id                  NVML's profile id ({@code nvmlGpuInstanceProfileInfo_t.id})
 * @param sliceCount          compute slices of one instance
 * @param instanceCount       how many instances of this profile the GPU can hold at most
 * @param multiprocessorCount streaming multiprocessors of one instance
 * @param memoryMiB           memory of one instance in MiB ({@code memorySizeMB})
 * @param placements          the possible placements, as NVML lists them
 */
public record GpuInstanceProfile(int profile, int id, int sliceCount, int instanceCount, int multiprocessorCount,
                                 long memoryMiB, List<InstancePlacement> placements) {

    /** {@code NVML_GPU_INSTANCE_PROFILE_1_SLICE}. */
    public static final int ONE_SLICE = 0;
    /** {@code NVML_GPU_INSTANCE_PROFILE_2_SLICE}. */
    public static final int TWO_SLICE = 1;
    /** {@code NVML_GPU_INSTANCE_PROFILE_3_SLICE}. */
    public static final int THREE_SLICE = 2;
    /** {@code NVML_GPU_INSTANCE_PROFILE_4_SLICE}. */
    public static final int FOUR_SLICE = 3;
    /** {@code NVML_GPU_INSTANCE_PROFILE_7_SLICE}. */
    public static final int SEVEN_SLICE = 4;
    /** {@code NVML_GPU_INSTANCE_PROFILE_8_SLICE}. */
    public static final int EIGHT_SLICE = 5;
    /** {@code NVML_GPU_INSTANCE_PROFILE_6_SLICE}. */
    public static final int SIX_SLICE = 6;
    /** {@code NVML_GPU_INSTANCE_PROFILE_1_SLICE_REV1} (media extensions). */
    public static final int ONE_SLICE_REV1 = 7;
    /** {@code NVML_GPU_INSTANCE_PROFILE_2_SLICE_REV1} (media extensions). */
    public static final int TWO_SLICE_REV1 = 8;
    /** {@code NVML_GPU_INSTANCE_PROFILE_1_SLICE_REV2} (one slice, two slices of memory). */
    public static final int ONE_SLICE_REV2 = 9;
    /** Profile constants this library asks NVML about: every one up to the graphics profiles of newer drivers. */
    public static final int PROFILE_ID_LIMIT = 13;

    /** Copies the placements; requires sane counts. */
    public GpuInstanceProfile {
        if (profile < 0 || id < 0 || sliceCount < 0 || instanceCount < 0 || multiprocessorCount < 0 || memoryMiB < 0) {
            throw new IllegalArgumentException("GPU instance profile values must not be negative");
        }
        placements = List.copyOf(Objects.requireNonNull(placements, "placements"));
    }

    /** True for the media-extension profiles ({@code +me}). */
    public boolean mediaExtensions() {
        return profile == ONE_SLICE_REV1 || profile == TWO_SLICE_REV1;
    }

    /**
     * The profile's name as {@code nvidia-smi mig -lgip} prints it without the {@code MIG } prefix:
     * {@code <slices>g.<memory GiB rounded up>gb}, {@code +me} for the media-extension profiles, e.g.
     * {@code 1g.5gb} for 4864 MiB, {@code 2g.10gb} for 9984 MiB, {@code 1g.10gb+me}.
     */
    public String name() {
        long gib = (memoryMiB + 1023) / 1024;
        return sliceCount + "g." + gib + "gb" + (mediaExtensions() ? "+me" : "");
    }

    /**
     * The compute-instance profile that spans a whole GPU instance of {@code sliceCount} slices
     * ({@code NVML_COMPUTE_INSTANCE_PROFILE_<n>_SLICE}), or -1 when NVML has none of that size.
     */
    public static int computeProfileFor(int sliceCount) {
        return switch (sliceCount) {
            case 1 -> 0;
            case 2 -> 1;
            case 3 -> 2;
            case 4 -> 3;
            case 7 -> 4;
            case 8 -> 5;
            case 6 -> 6;
            default -> -1;
        };
    }
}
