package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.deviceplugin.core.advertise.DeviceIds;

import java.util.List;

/** {@code physical_device_id}: kubelet device ID → physical GPU. */
public final class PhysicalDeviceIdVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        return new Checks().expect("physical_id", vector.path("expected").path("physical_id").asText(),
                DeviceIds.physicalId(vector.path("input").path("id").asText())).list();
    }
}
