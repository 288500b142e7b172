package io.vgpu.deviceplugin.core.allocate;
import io.vgpu.deviceplugin.core.outcome.Outcome;
import io.vgpu.deviceplugin.core.cluster.ContainerView;

import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.PodDevicesCodec;
import io.vgpu.state.model.ContainerDevice;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * HAMi's reading and consumption of {@code hami.io/vgpu-devices-to-allocate} in the device plugin
 * (spec §2.2, §2.3, §2.6). The decoded list keeps the empty tail entry that the closing {@code ;}
 * produces, and the write-back re-encodes EVERY decoded entry, so the annotation grows by one
 * {@code ;} per {@code Allocate} ({@code A:;B:;} → {@code ;B:;;}) exactly as HAMi v2.10 writes it:
 * schedulers and tools that compare the value keep working. Pure and thread-safe.
 *
 * <p>Entry {@code i} belongs to {@code initContainers[i]} when {@code i < initContainers.size()},
 * else to {@code containers[i - initContainers.size()]}.
 */
public final class AllocationEntries {

    /** Error when the pod has no to-allocate annotation (or nothing left for a read-only lookup). */
    public static final String NO_REQUEST = "device request not found";
    /** Error when every entry is already consumed. */
    public static final String NOTHING_PENDING = PodDevicesCodec.NOTHING_TO_ALLOCATE;

    private AllocationEntries() {
    }

    /** Decodes the pod's to-allocate annotation; absent → {@value #NO_REQUEST}. */
    public static Outcome<List<List<ContainerDevice>>> decode(Map<String, String> annotations) {
        String value = annotations.get(HamiAnnotations.DEVICES_TO_ALLOCATE);
        if (value == null) {
            return Outcome.failed(NO_REQUEST);
        }
        Decoded<List<List<ContainerDevice>>> decoded = PodDevicesCodec.decode(value);
        return decoded.isOk() ? Outcome.ok(decoded.value()) : Outcome.failed(decoded.error());
    }

    /** The re-encoded annotation: every entry (the empty tail included) closed by {@code ;}. */
    public static String encode(List<List<ContainerDevice>> entries) {
        return PodDevicesCodec.encode(entries);
    }

    /**
     * HAMi {@code GetNextDeviceRequest}: the first non-empty entry and its container, without consuming
     * it; {@value #NO_REQUEST} when there is none.
     */
    public static Outcome<ContainerTake> next(List<List<ContainerDevice>> entries, List<ContainerView> initContainers,
                                              List<ContainerView> containers) {
        for (int i = 0; i < entries.size(); i++) {
            if (!entries.get(i).isEmpty()) {
                return take(i, entries.get(i), initContainers, containers);
            }
        }
        return Outcome.failed(NO_REQUEST);
    }

    /**
     * HAMi {@code popNextContainerDevices}: takes the first non-empty entry and returns the entries with
     * it emptied; {@value #NOTHING_PENDING} when none is left.
     */
    public static Outcome<Popped> pop(List<List<ContainerDevice>> entries, List<ContainerView> initContainers,
                                      List<ContainerView> containers) {
        for (int i = 0; i < entries.size(); i++) {
            if (!entries.get(i).isEmpty()) {
                int index = i;
                return take(i, entries.get(i), initContainers, containers).then(taken -> {
                    List<List<ContainerDevice>> after = new ArrayList<>(entries);
                    after.set(index, List.of());
                    return Outcome.ok(new Popped(taken, after));
                });
            }
        }
        return Outcome.failed(NOTHING_PENDING);
    }

    private static Outcome<ContainerTake> take(int index, List<ContainerDevice> devices,
                                               List<ContainerView> initContainers, List<ContainerView> containers) {
        if (index < initContainers.size()) {
            return Outcome.ok(new ContainerTake(index, initContainers.get(index), devices));
        }
        int regular = index - initContainers.size();
        if (regular < containers.size()) {
            return Outcome.ok(new ContainerTake(index, containers.get(regular), devices));
        }
        return Outcome.failed("container index " + index + " out of range (" + initContainers.size()
                + " init containers, " + containers.size() + " containers)");
    }

    /**
     * One consumed entry.
     *
     * @param taken        the container served and its devices
     * @param entriesAfter every entry with the taken one emptied
     */
    public record Popped(ContainerTake taken, List<List<ContainerDevice>> entriesAfter) {

        /** Copies the entries. */
        public Popped {
            entriesAfter = List.copyOf(entriesAfter);
        }
    }
}
