package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.MigPlacement;
import io.vgpu.state.model.MigProfile;

import java.util.ArrayList;
import java.util.List;

/** {@code node_register_json}: the exact bytes of the register annotation (or of one MIG profile). */
public final class NodeRegisterJsonVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        Checks c = new Checks();
        JsonNode in = vector.path("input");
        JsonNode expected = vector.path("expected");
        if (in.has("mig_profile")) {
            JsonNode p = in.get("mig_profile");
            List<MigPlacement> placements = new ArrayList<>();
            p.path("placements").forEach(n -> placements.add(new MigPlacement(n.path("start").asInt(), n.path("size").asInt())));
            MigProfile profile = new MigProfile(p.path("name").asText(), p.path("memoryMB").asInt(), p.path("core").asInt(),
                    p.path("sliceCount").asInt(), placements);
            return c.expect("json", expected.path("json").asText(), NodeRegisterCodec.encodeMigProfile(profile)).list();
        }
        List<GpuDevice> devices = new ArrayList<>();
        in.path("device_infos").forEach(n -> devices.add(NodeJson.gpuDevice(n)));
        c.expect("annotation_key", expected.path("annotation_key").asText(), HamiAnnotations.NODE_NVIDIA_REGISTER);
        c.expect("annotation_value", expected.path("annotation_value").asText(), NodeRegisterCodec.encode(devices));
        return c.list();
    }
}
