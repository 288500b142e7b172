package io.vgpu.hamicore;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The MIG state of one GPU in a {@link FakeNvml}: its profiles, its mode and the GPU and compute
 * instances that exist, with the error codes a real driver gives for the same mistakes (the fake C
 * library {@code src/test/c/fake_nvml.c} follows the same rules). Not thread-safe: {@link FakeNvml}
 * calls it under its own lock.
 */
final class FakeMig {

    /** NVML_ERROR_INSUFFICIENT_RESOURCES. */
    static final int INSUFFICIENT_RESOURCES = 23;
    /** NVML_ERROR_IN_USE. */
    static final int IN_USE = 19;
    /** NVML_ERROR_INVALID_STATE. */
    static final int INVALID_STATE = 29;

    /** An A100-SXM4-40GB's GPU-instance profiles. */
    static final List<GpuInstanceProfile> A100_PROFILES = List.of(
            profile(GpuInstanceProfile.ONE_SLICE, 19, 1, 7, 14, 4864, 1, 0, 1, 2, 3, 4, 5, 6),
            profile(GpuInstanceProfile.TWO_SLICE, 14, 2, 3, 28, 9984, 2, 0, 2, 4),
            profile(GpuInstanceProfile.THREE_SLICE, 9, 3, 2, 42, 20096, 4, 0, 4),
            profile(GpuInstanceProfile.FOUR_SLICE, 5, 4, 1, 56, 20096, 4, 0),
            profile(GpuInstanceProfile.SEVEN_SLICE, 0, 7, 1, 98, 40192, 8, 0),
            profile(GpuInstanceProfile.ONE_SLICE_REV1, 20, 1, 1, 14, 4864, 1, 0, 1, 2, 3, 4, 5, 6),
            profile(GpuInstanceProfile.ONE_SLICE_REV2, 15, 1, 4, 14, 9856, 2, 0, 2, 4, 6));
    /** An H100 80GB HBM3's GPU-instance profiles. */
    static final List<GpuInstanceProfile> H100_PROFILES = List.of(
            profile(GpuInstanceProfile.ONE_SLICE, 19, 1, 7, 16, 9984, 1, 0, 1, 2, 3, 4, 5, 6),
            profile(GpuInstanceProfile.TWO_SLICE, 14, 2, 3, 32, 20096, 2, 0, 2, 4),
            profile(GpuInstanceProfile.THREE_SLICE, 9, 3, 2, 60, 40320, 4, 0, 4),
            profile(GpuInstanceProfile.FOUR_SLICE, 5, 4, 1, 64, 40320, 4, 0),
            profile(GpuInstanceProfile.SEVEN_SLICE, 0, 7, 1, 132, 80896, 8, 0),
            profile(GpuInstanceProfile.ONE_SLICE_REV1, 20, 1, 1, 16, 9984, 1, 0, 1, 2, 3, 4, 5, 6),
            profile(GpuInstanceProfile.ONE_SLICE_REV2, 15, 1, 4, 16, 20096, 2, 0, 2, 4, 6));

    private final String gpuUuid;
    private final List<GpuInstanceProfile> profiles;
    private final TreeMap<Integer, Gi> instances = new TreeMap<>();
    private boolean current;
    private boolean pending;
    private boolean enableNeedsReset;

    FakeMig(String gpuUuid, List<GpuInstanceProfile> profiles, boolean enabled) {
        this.gpuUuid = gpuUuid;
        this.profiles = List.copyOf(profiles);
        this.current = enabled;
        this.pending = enabled;
    }

    MigMode mode() {
        return new MigMode(current, pending);
    }

    List<GpuInstanceProfile> profiles() {
        return profiles;
    }

    /** From now on enabling MIG only becomes pending (the GPU would need a reset). */
    void enableNeedsReset(boolean needsReset) {
        enableNeedsReset = needsReset;
    }

    void setMode(boolean enabled) {
        if (!enabled && !instances.isEmpty()) {
            throw error(IN_USE, "nvmlDeviceSetMigMode", "GPU instances exist");
        }
        pending = enabled;
        if (!enabled || !enableNeedsReset) {
            current = enabled;
        }
    }

    int createGi(int profileId, InstancePlacement placement) {
        String fn = "nvmlDeviceCreateGpuInstanceWithPlacement";
        if (!current) {
            throw error(INVALID_STATE, fn, "MIG mode is off");
        }
        GpuInstanceProfile profile = profile(profileId, fn);
        if (!profile.placements().contains(placement)) {
            throw error(NvmlException.INVALID_ARGUMENT, fn, "placement " + placement + " is not possible for profile " + profileId);
        }
        long sameProfile = instances.values().stream().filter(g -> g.profile.id() == profileId).count();
        if (sameProfile >= profile.instanceCount()
                || instances.values().stream().anyMatch(g -> g.placement.overlaps(placement))) {
            throw error(INSUFFICIENT_RESOURCES, fn, "placement " + placement + " is taken");
        }
        int id = 1;
        while (instances.containsKey(id)) {
            id++;
        }
        instances.put(id, new Gi(id, profile, placement));
        return id;
    }

    int createCi(int giId, int computeProfile) {
        String fn = "nvmlGpuInstanceCreateComputeInstance";
        Gi gi = gi(giId, fn);
        int slices = computeSlices(computeProfile);
        if (slices < 0 || slices > gi.profile.sliceCount()) {
            throw error(NvmlException.NOT_SUPPORTED, "nvmlGpuInstanceGetComputeInstanceProfileInfo",
                    "compute profile " + computeProfile + " does not fit");
        }
        int used = gi.computeInstances.values().stream().mapToInt(Integer::intValue).sum();
        if (used + slices > gi.profile.sliceCount()) {
            throw error(INSUFFICIENT_RESOURCES, fn, "GPU instance " + giId + " is full");
        }
        int id = 0;
        while (gi.computeInstances.containsKey(id)) {
            id++;
        }
        gi.computeInstances.put(id, slices);
        return id;
    }

    void destroyCi(int giId, int ciId) {
        Gi gi = gi(giId, "nvmlGpuInstanceGetComputeInstanceById");
        if (gi.computeInstances.remove(ciId) == null) {
            throw error(NvmlException.NOT_FOUND, "nvmlGpuInstanceGetComputeInstanceById", "no compute instance " + ciId);
        }
    }

    void destroyGi(int giId) {
        Gi gi = gi(giId, "nvmlDeviceGetGpuInstanceById");
        if (!gi.computeInstances.isEmpty()) {
            throw error(IN_USE, "nvmlGpuInstanceDestroy", "GPU instance " + giId + " holds compute instances");
        }
        instances.remove(giId);
    }

    List<GpuInstance> instances() {
        List<GpuInstance> out = new ArrayList<>();
        for (Gi gi : instances.values()) {
            out.add(new GpuInstance(gi.id, gi.profile.id(), gi.placement, List.copyOf(gi.computeInstances.keySet())));
        }
        return out;
    }

    List<MigDevice> devices() {
        List<MigDevice> out = new ArrayList<>();
        for (Gi gi : instances.values()) {
            for (int ci : gi.computeInstances.keySet()) {
                out.add(new MigDevice(migUuid(gpuUuid, gi.id, ci), gi.id, ci));
            }
        }
        return out;
    }

    /**
     * The UUID of the MIG device of compute instance {@code ci} in GPU instance {@code gi}: stable for
     * the same GPU and ids, as a driver reports the same UUID for the same instance.
     */
    static String migUuid(String gpuUuid, int gi, int ci) {
        return "MIG-" + UUID.nameUUIDFromBytes((gpuUuid + "/" + gi + "/" + ci).getBytes(StandardCharsets.UTF_8));
    }

    /** Slices of the {@code NVML_COMPUTE_INSTANCE_PROFILE_*} constant {@code profile}; -1 for others. */
    static int computeSlices(int profile) {
        return switch (profile) {
            case 0, 7 -> 1;
            case 1 -> 2;
            case 2 -> 3;
            case 3 -> 4;
            case 4 -> 7;
            case 5 -> 8;
            case 6 -> 6;
            default -> -1;
        };
    }

    private static GpuInstanceProfile profile(int profile, int id, int slices, int instances, int sms, long mib, int size,
                                              int... starts) {
        List<InstancePlacement> placements = new ArrayList<>();
        for (int start : starts) {
            placements.add(new InstancePlacement(start, size));
        }
        return new GpuInstanceProfile(profile, id, slices, instances, sms, mib, placements);
    }

    private GpuInstanceProfile profile(int profileId, String fn) {
        return profiles.stream().filter(p -> p.id() == profileId).findFirst()
                .orElseThrow(() -> error(NvmlException.NOT_SUPPORTED, fn, "profile " + profileId + " is not supported"));
    }

    private Gi gi(int giId, String fn) {
        Gi gi = instances.get(giId);
        if (gi == null) {
            throw error(NvmlException.NOT_FOUND, fn, "no GPU instance " + giId);
        }
        return gi;
    }

    private static NvmlException error(int code, String function, String detail) {
        return new NvmlException(code, function, detail);
    }

    private static final class Gi {
        final int id;
        final GpuInstanceProfile profile;
        final InstancePlacement placement;
        final Map<Integer, Integer> computeInstances = new TreeMap<>();

        Gi(int id, GpuInstanceProfile profile, InstancePlacement placement) {
            this.id = id;
            this.profile = profile;
            this.placement = placement;
        }
    }
}
