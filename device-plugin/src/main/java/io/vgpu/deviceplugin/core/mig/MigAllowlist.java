package io.vgpu.deviceplugin.core.mig;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * HAMi's {@code nvidia.migProfileAllowlist} (device config, shared with the scheduler): per GPU model,
 * the MIG profiles the cluster lets the scheduler hand out. It decides which profiles a GPU advertises
 * in dynamic-MIG mode; their memory, compute share and placements always come from NVML. A GPU
 * matches an entry when its NVML name contains one of the entry's models ({@code A100-SXM4-40GB}
 * matches {@code NVIDIA A100-SXM4-40GB}). Pure.
 *
 * @param entries the list, in file order
 */
public record MigAllowlist(List<Entry> entries) {

    /** No profile allowed anywhere: dynamic MIG advertises nothing. */
    public static final MigAllowlist EMPTY = new MigAllowlist(List.of());

    /** Copies the list. */
    public MigAllowlist {
        entries = List.copyOf(entries);
    }

    /**
     * The profiles allowed for a GPU called {@code gpuName}, in file order without repeats; empty when
     * no entry names its model.
     */
    public Set<String> profilesFor(String gpuName) {
        Set<String> out = new LinkedHashSet<>();
        for (Entry e : entries) {
            if (e.models().stream().anyMatch(gpuName::contains)) {
                out.addAll(e.profiles());
            }
        }
        return out;
    }

    /**
     * HAMi's {@code ValidateMigProfileAllowlist}: every entry names models and profiles, every profile
     * is {@code <n>g.<memory>} (e.g. {@code 1g.10gb}, {@code 1g.10gb+me}).
     *
     * @return the first problem, or empty
     */
    public Optional<String> problem() {
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            if (e.models().isEmpty() || e.profiles().isEmpty()) {
                return Optional.of("migProfileAllowlist[" + i + "] must define models and profiles");
            }
            for (String profile : e.profiles()) {
                int dot = profile.indexOf('.');
                String slices = dot < 0 ? "" : profile.substring(0, dot);
                if (dot < 0 || dot == profile.length() - 1 || slices.length() < 2 || !slices.endsWith("g")) {
                    return Optional.of("migProfileAllowlist[" + i + "] has an invalid MIG profile \"" + profile
                            + "\" (expected <n>g.<memory>, e.g. 1g.10gb)");
                }
            }
        }
        return Optional.empty();
    }

    /**
     * One entry.
     *
     * @param models   substrings of NVML product names, e.g. {@code A100-SXM4-40GB}
     * @param profiles MIG profile names, e.g. {@code 1g.5gb}
     */
    public record Entry(List<String> models, List<String> profiles) {

        /** Copies the lists; requires both. */
        public Entry {
            models = List.copyOf(Objects.requireNonNull(models, "models"));
            profiles = List.copyOf(Objects.requireNonNull(profiles, "profiles"));
        }
    }

    /** A builder-free way to write one entry in tests and config code. */
    public static MigAllowlist of(List<String> models, List<String> profiles) {
        List<Entry> list = new ArrayList<>();
        list.add(new Entry(models, profiles));
        return new MigAllowlist(list);
    }
}
