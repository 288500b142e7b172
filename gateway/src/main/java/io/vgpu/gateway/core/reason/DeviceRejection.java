package io.vgpu.gateway.core.reason;

import io.vgpu.state.model.FitReason;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * HAMi's NVIDIA Fit rejection of one container on one node (spec §9.4): how many of the node's {@code devices}
 * candidate devices were turned away for each {@link FitReason}. A reason present with count 0 is still reported,
 * as HAMi's counter map does.
 *
 * @param counts  reason → count; every reason Fit counted, in enum order
 * @param devices the denominator of every part: the devices handed to Fit
 */
public record DeviceRejection(Map<FitReason, Integer> counts, int devices) implements NodeRejection {

    /** Copies the counts into an unmodifiable enum map. */
    public DeviceRejection {
        EnumMap<FitReason, Integer> copy = new EnumMap<>(FitReason.class);
        copy.putAll(counts);
        counts = Collections.unmodifiableMap(copy);
    }

    /** The reasons counted (the words of HAMi's {@code FilteringFailed} events). */
    public Set<FitReason> reasons() {
        return counts.keySet();
    }

    /** HAMi's {@code GenReason}: {@code "<count>/<devices> <Reason>"} per counted reason, sorted as strings. */
    @Override
    public String hamiText() {
        List<String> parts = new ArrayList<>(counts.size());
        counts.forEach((reason, count) -> parts.add(count + "/" + devices + " " + reason.name()));
        parts.sort(null);
        return String.join(", ", parts);
    }

    /** Each counted reason's name; {@link #OTHER} when nothing was counted (its text is empty). */
    @Override
    public List<String> labels() {
        if (counts.isEmpty()) {
            return List.of(OTHER);
        }
        List<String> out = new ArrayList<>(counts.size());
        counts.keySet().forEach(r -> out.add(r.name()));
        return out;
    }
}
