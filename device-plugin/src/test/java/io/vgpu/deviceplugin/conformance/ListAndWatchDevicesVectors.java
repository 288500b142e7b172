package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.deviceplugin.core.advertise.AdvertisedDevice;
import io.vgpu.deviceplugin.core.advertise.DeviceAdvertisement;
import io.vgpu.deviceplugin.core.advertise.PhysicalDevice;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/** {@code list_and_watch_devices}: the advertised fake devices. */
public final class ListAndWatchDevicesVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        Checks c = new Checks();
        JsonNode in = vector.path("input");
        List<PhysicalDevice> physical = new ArrayList<>();
        int index = 0;
        for (JsonNode d : in.path("physical_devices")) {
            OptionalInt numa = d.hasNonNull("numa_node") && d.get("numa_node").asInt() >= 0
                    ? OptionalInt.of(d.get("numa_node").asInt()) : OptionalInt.empty();
            physical.add(new PhysicalDevice(d.path("id").asText(), index++,
                    AdvertisedDevice.HEALTHY.equals(d.path("health").asText()), numa));
        }
        List<AdvertisedDevice> got = DeviceAdvertisement.advertise(physical, in.path("device_split_count").asInt(),
                in.path("enable_numa_topology").asBoolean());
        List<String> actual = got.stream().map(ListAndWatchDevicesVectors::describe).toList();
        List<String> want = new ArrayList<>();
        for (JsonNode d : vector.path("expected").path("devices")) {
            JsonNode topology = d.path("topology");
            String numa = topology.isNull() || topology.isMissingNode() ? "none" : topology.path("nodes").path(0).path("ID").asText();
            want.add(d.path("ID").asText() + "|" + d.path("health").asText() + "|" + numa);
        }
        return c.expectSameElements("devices", want, actual).list();
    }

    private static String describe(AdvertisedDevice d) {
        return d.id() + "|" + d.health() + "|" + (d.numa().isPresent() ? String.valueOf(d.numa().getAsInt()) : "none");
    }
}
