package io.vgpu.deviceplugin.core.advertise;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * The device list ListAndWatch sends (HAMi {@code GetPluginDevices}, spec §1.4): every GPU as
 * {@code deviceSplitCount} fake devices carrying its health and, only with NUMA topology enabled, its
 * NUMA node; upstream MIG devices (first ID contains {@code MIG}) are sent as they are. Devices are
 * listed in the order given (the caller sorts by NVML index). Pure.
 */
public final class DeviceAdvertisement {

    private DeviceAdvertisement() {
    }

    /**
     * @param devices      the physical devices, in order
     * @param splitCount   {@code deviceSplitCount}
     * @param numaTopology {@code enableNumaTopology}
     */
    public static List<AdvertisedDevice> advertise(List<PhysicalDevice> devices, int splitCount, boolean numaTopology) {
        List<AdvertisedDevice> out = new ArrayList<>();
        if (!devices.isEmpty() && devices.get(0).id().contains("MIG")) {
            for (PhysicalDevice d : devices) {
                out.add(new AdvertisedDevice(d.id(), health(d), d.numa()));
            }
            return List.copyOf(out);
        }
        for (PhysicalDevice d : devices) {
            OptionalInt numa = numaTopology ? d.numa() : OptionalInt.empty();
            for (String id : DeviceIds.splitIds(d.id(), splitCount)) {
                out.add(new AdvertisedDevice(id, health(d), numa));
            }
        }
        return List.copyOf(out);
    }

    private static String health(PhysicalDevice d) {
        return d.healthy() ? AdvertisedDevice.HEALTHY : AdvertisedDevice.UNHEALTHY;
    }
}
