package io.vgpu.deviceplugin.core.mig;

import io.vgpu.state.model.MigProfile;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What one GPU offers in dynamic-MIG mode: the allowed profiles NVML knows, as the register
 * annotation carries them ({@code migProfiles}: name, memoryMB, core, sliceCount, placements) and the
 * register {@code count} (the largest {@code instanceCount} among them), plus NVML's data for each
 * profile that instance creation needs. Pure.
 *
 * <p>{@code core} is the instance's share of the GPU's streaming multiprocessors in percent, rounded
 * up, against the largest profile (the whole GPU): 15 for an A100's {@code 1g.5gb} (14 of 98), 29 for
 * {@code 2g.10gb} (28 of 98), 100 for {@code 7g.40gb}.
 *
 * @param profiles what the register advertises, in allowlist order
 * @param count    the register {@code count}
 * @param nvml     NVML's data per advertised profile name
 */
public record MigCapability(List<MigProfile> profiles, int count, Map<String, NvmlMigProfile> nvml) {

    /** Nothing offered: the GPU is left out of the register in dynamic-MIG mode. */
    public static final MigCapability NONE = new MigCapability(List.of(), 0, Map.of());

    /** Copies. */
    public MigCapability {
        profiles = List.copyOf(profiles);
        nvml = Map.copyOf(nvml);
    }

    /**
     * @param reported every profile NVML reports for the GPU
     * @param allowed  the allowlist's profiles for its model ({@link MigAllowlist#profilesFor})
     */
    public static MigCapability of(List<NvmlMigProfile> reported, Set<String> allowed) {
        Map<String, NvmlMigProfile> byName = reported.stream()
                .collect(Collectors.toMap(NvmlMigProfile::name, Function.identity(), (first, later) -> first));
        int fullGpu = reported.stream().mapToInt(NvmlMigProfile::multiprocessorCount).max().orElse(0);
        List<MigProfile> out = new ArrayList<>();
        Map<String, NvmlMigProfile> used = new LinkedHashMap<>();
        int count = 0;
        for (String name : allowed) {
            NvmlMigProfile p = byName.get(name);
            if (p == null || p.placements().isEmpty() || fullGpu == 0) {
                continue;
            }
            int core = (int) Math.min(100, (100L * p.multiprocessorCount() + fullGpu - 1) / fullGpu);
            out.add(new MigProfile(p.name(), (int) Math.min(Integer.MAX_VALUE, p.memoryMiB()), core, p.sliceCount(),
                    p.placements()));
            used.put(name, p);
            count = Math.max(count, p.instanceCount());
        }
        return out.isEmpty() ? NONE : new MigCapability(out, count, used);
    }

    /** True when the GPU offers at least one profile. */
    public boolean offersAny() {
        return !profiles.isEmpty();
    }

    /** NVML's data for an advertised profile. */
    public Optional<NvmlMigProfile> profile(String name) {
        return Optional.ofNullable(nvml.get(name));
    }
}
