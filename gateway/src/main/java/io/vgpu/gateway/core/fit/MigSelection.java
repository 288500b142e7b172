package io.vgpu.gateway.core.fit;

import io.vgpu.state.model.MigPlacement;
import io.vgpu.state.model.MigProfile;
import io.vgpu.state.model.MigUse;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The MIG placement rule (spec §9.6, HAMi's {@code selectMigCandidate}): for a request of {@code memory}
 * MiB on a GPU with the given profiles and already occupied placements, take the smallest profile (by
 * memoryMB, then sliceCount, stable) with {@code memoryMB >= memory} that has a free placement; a
 * profile's placements are tried in descending {@code start} for {@code 1g.*}/{@code 3g.*} profiles and
 * ascending otherwise, and the first one that overlaps nothing occupied wins. Used by Fit's check
 * (step 15) and by the usage update after a pick, so both choose the same placement. Pure.
 */
public final class MigSelection {

    private static final Comparator<MigProfile> SMALLEST_FIRST =
            Comparator.comparingInt(MigProfile::memoryMB).thenComparingInt(MigProfile::sliceCount);

    private MigSelection() {
    }

    /**
     * A chosen profile and placement.
     *
     * @param profile   the profile the instance is created with
     * @param placement the slices it occupies
     */
    public record Choice(MigProfile profile, MigPlacement placement) {

        /** The usage record of this choice. */
        public MigUse use() {
            return new MigUse(profile.name(), placement);
        }
    }

    /**
     * @param profiles the GPU's registered profiles
     * @param occupied placements already in use on the GPU
     * @param memory   MiB the instance must offer
     * @return the choice, or null when no profile has a free placement
     */
    public static Choice select(List<MigProfile> profiles, List<MigPlacement> occupied, int memory) {
        List<MigProfile> candidates = new ArrayList<>(profiles);
        candidates.sort(SMALLEST_FIRST); // List.sort is stable, like Go's sort.SliceStable
        for (MigProfile profile : candidates) {
            if (profile.memoryMB() < memory) {
                continue;
            }
            MigPlacement placement = freePlacement(profiles, occupied, profile.name());
            if (placement != null) {
                return new Choice(profile, placement);
            }
        }
        return null;
    }

    /** The placements of the usage records, in order. */
    public static List<MigPlacement> placements(List<MigUse> uses) {
        List<MigPlacement> out = new ArrayList<>(uses.size());
        for (MigUse use : uses) {
            out.add(use.placement());
        }
        return out;
    }

    /** HAMi's {@code selectMigPlacement}: looks the profile up by name (first match), then tries its placements. */
    private static MigPlacement freePlacement(List<MigProfile> profiles, List<MigPlacement> occupied, String name) {
        MigProfile profile = null;
        for (MigProfile p : profiles) {
            if (p.name().equals(name)) {
                profile = p;
                break;
            }
        }
        if (profile == null) {
            return null;
        }
        List<MigPlacement> ordered = new ArrayList<>(profile.placements());
        boolean highFirst = name.startsWith("1g.") || name.startsWith("3g.");
        ordered.sort(highFirst ? Comparator.comparingInt(MigPlacement::start).reversed()
                : Comparator.comparingInt(MigPlacement::start));
        for (MigPlacement candidate : ordered) {
            if (!overlapsAny(candidate, occupied)) {
                return candidate;
            }
        }
        return null;
    }

    private static boolean overlapsAny(MigPlacement candidate, List<MigPlacement> occupied) {
        for (MigPlacement existing : occupied) {
            if (candidate.overlaps(existing)) {
                return true;
            }
        }
        return false;
    }
}
