package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.deviceplugin.core.advertise.PluginOptions;

import java.util.List;

/** {@code device_plugin_options}: the RPC answer vs the registration request's options. */
public final class DevicePluginOptionsVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        Checks c = new Checks();
        JsonNode expected = vector.path("expected");
        boolean flag = vector.path("input").path("node_config_enablegetpreferredallocation").asBoolean();
        expect(c, "GetDevicePluginOptions", expected.path("GetDevicePluginOptions"), PluginOptions.rpcAnswer());
        expect(c, "RegisterRequest.options", expected.path("RegisterRequest.options"), PluginOptions.forRegistration(flag));
        return c.list();
    }

    private static void expect(Checks c, String what, JsonNode want, PluginOptions got) {
        c.expect(what + ".get_preferred_allocation_available", want.path("get_preferred_allocation_available").asBoolean(),
                got.getPreferredAllocationAvailable());
        c.expect(what + ".pre_start_required", want.path("pre_start_required").asBoolean(), got.preStartRequired());
    }
}
