package io.vgpu.deviceplugin.core.allocate;
import io.vgpu.deviceplugin.core.outcome.Outcome;
import io.vgpu.deviceplugin.core.mig.RealizedMig;
import io.vgpu.deviceplugin.core.mig.MigKey;
import io.vgpu.deviceplugin.core.cluster.PodView;

import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.MigAllocationsCodec;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.MigAllocation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Dynamic MIG's reading of the scheduler's reservations ({@code hami.io/vgpu-mig-allocations}, spec
 * §5.2, scheduler spec §9.6) on the node side. Pure and thread-safe.
 *
 * <ul>
 *   <li>{@code Allocate} realises, for the container it serves, exactly the reservations whose
 *       {@code containerIndex} is that container's entry index, one per annotated device in device
 *       order, each on the annotated GPU; anything else is refused (never another placement).</li>
 *   <li>Reclaiming is conservative: only when every live pod's annotation reads cleanly does the set
 *       of reserved keys authorise destroying the instances outside it.</li>
 * </ul>
 */
public final class MigReservations {

    private MigReservations() {
    }

    /** The pod's reservations; none when it has no annotation; the codec's error when it cannot be read. */
    public static Outcome<List<MigAllocation>> of(PodView pod) {
        Decoded<List<MigAllocation>> decoded = MigAllocationsCodec.decode(pod.annotation(HamiAnnotations.MIG_ALLOCATIONS));
        return decoded.isOk() ? Outcome.ok(decoded.value())
                : Outcome.failed("pod " + pod.key() + " has an unreadable " + HamiAnnotations.MIG_ALLOCATIONS + ": "
                        + decoded.error());
    }

    /**
     * The reservations of the container {@code take} serves, in device order: one per annotated device,
     * on that device's GPU.
     */
    public static Outcome<List<MigAllocation>> forContainer(List<MigAllocation> all, ContainerTake take) {
        List<MigAllocation> mine = all.stream().filter(a -> a.containerIndex() == take.entryIndex())
                .sorted(Comparator.comparingInt(MigAllocation::deviceIndex)).toList();
        List<ContainerDevice> devices = take.devices();
        for (int i = 0; i < devices.size(); i++) {
            String gpu = devices.get(i).uuid();
            MigAllocation a = i < mine.size() ? mine.get(i) : null;
            if (a == null || a.deviceIndex() != i || !a.gpuUuid().equals(gpu)) {
                return Outcome.failed("no MIG reservation for device " + i + " (" + gpu + ") of container "
                        + take.container().name() + " in " + HamiAnnotations.MIG_ALLOCATIONS
                        + ": dynamic MIG needs the scheduler's profile and placement for every device");
            }
        }
        if (mine.size() != devices.size()) {
            return Outcome.failed(HamiAnnotations.MIG_ALLOCATIONS + " reserves " + mine.size() + " MIG devices for container "
                    + take.container().name() + ", which was assigned " + devices.size() + " GPUs");
        }
        return Outcome.ok(mine);
    }

    /**
     * Every key the live pods ({@link PodView#live()}) reserve; failed when one of them has an
     * annotation that cannot be read, so that nothing is reclaimed on a partial view.
     */
    public static Outcome<Set<MigKey>> reservedBy(List<PodView> pods) {
        Set<MigKey> out = new LinkedHashSet<>();
        for (PodView pod : pods) {
            if (!pod.live()) {
                continue;
            }
            Outcome<List<MigAllocation>> read = of(pod);
            if (!read.isOk()) {
                return Outcome.failed(read.error());
            }
            read.value().forEach(a -> out.add(MigKey.of(a)));
        }
        return Outcome.ok(out);
    }

    /** The reservations of every live pod whose annotation reads (the others are skipped). */
    public static List<MigAllocation> liveReservations(List<PodView> pods) {
        List<MigAllocation> out = new ArrayList<>();
        for (PodView pod : pods) {
            if (pod.live()) {
                Outcome<List<MigAllocation>> read = of(pod);
                if (read.isOk()) {
                    out.addAll(read.value());
                }
            }
        }
        return out;
    }

    /**
     * The pod's reservations with the runtime identity of the instances that realise the served ones:
     * {@code realized} maps a reservation's {@code (containerIndex, deviceIndex)} to its instance.
     */
    public static List<MigAllocation> record(List<MigAllocation> all, Map<List<Integer>, RealizedMig> realized) {
        List<MigAllocation> out = new ArrayList<>(all.size());
        for (MigAllocation a : all) {
            RealizedMig r = realized.get(List.of(a.containerIndex(), a.deviceIndex()));
            out.add(r == null ? a : a.withRuntime(r.migUuid(), r.gpuInstanceId(), r.computeInstanceId()));
        }
        return out;
    }
}
