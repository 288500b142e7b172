package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.deviceplugin.core.allocate.AllocateSettings;
import io.vgpu.deviceplugin.core.allocate.CdiSettings;
import io.vgpu.deviceplugin.core.allocate.ContainerResponse;
import io.vgpu.deviceplugin.core.allocate.DeviceIdStrategy;
import io.vgpu.deviceplugin.core.advertise.DeviceInventory;
import io.vgpu.deviceplugin.core.allocate.DeviceListStrategy;
import io.vgpu.deviceplugin.core.allocate.DeviceResponses;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code cdi_response}: the CDI annotation of a container answer. The vectors use the Go test double's
 * qualified names ({@code nvidia.com/<class>=<id>}), i.e. CDI vendor {@code nvidia.com}.
 */
public final class CdiResponseVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        Checks c = new Checks();
        JsonNode in = vector.path("input");
        List<DeviceListStrategy> strategies = new ArrayList<>();
        for (String s : NodeJson.strings(in.path("device_list_strategy"))) {
            strategies.add(DeviceListStrategy.parse(s).orElseThrow());
        }
        AllocateSettings settings = new AllocateSettings("nvidia.com/gpu", "/usr/local", 1, "", false, DeviceIdStrategy.UUID,
                strategies, false, AllocateSettings.MODE_HAMI_CORE, "", false,
                new CdiSettings(in.path("cdi_annotation_prefix").asText(), "nvidia.com", NodeJson.strings(in.get("additional_cdi_devices"))),
                NodeJson.strings(in.get("imex_channel_ids")), false, false, false);
        ContainerResponse response = DeviceResponses.forDevices(NodeJson.strings(in.get("device_ids")), settings,
                DeviceInventory.empty(), in.path("response_id").asText()).build();
        JsonNode expected = vector.path("expected");
        c.expect("annotations", NodeJson.stringMap(expected.path("annotations")), response.annotations());
        if (expected.has("cdi_devices")) {
            c.expect("cdi_devices", NodeJson.strings(expected.get("cdi_devices")), response.cdiDevices());
        }
        if (expected.has("envs")) {
            c.expect("envs", NodeJson.stringMap(expected.get("envs")), response.envs());
        }
        return c.list();
    }
}
