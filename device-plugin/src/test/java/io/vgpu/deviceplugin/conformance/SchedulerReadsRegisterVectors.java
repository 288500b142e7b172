package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.MigPlacement;
import io.vgpu.state.model.MigProfile;

import java.util.ArrayList;
import java.util.List;

/** {@code scheduler_reads_register}: what the stock scheduler parses from what the plugin writes. */
public final class SchedulerReadsRegisterVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        Checks c = new Checks();
        JsonNode expected = vector.path("expected");
        Decoded<List<GpuDevice>> read = NodeRegisterCodec.decode(vector.path("input").path("annotation_value").asText());
        if (expected.has("error")) {
            return c.expectError("error", expected.get("error").asText(), read.isOk() ? null : read.error()).list();
        }
        if (!read.isOk()) {
            return c.fail("unexpected error: " + read.error()).list();
        }
        JsonNode devices = expected.path("devices");
        if (devices.isArray()) {
            NodeJson.expectDevices(c, devices, read.value());
            return c.list();
        }
        c.expect("devices", devices.asInt(), read.value().size());
        if (expected.has("migProfiles[0].name") && !read.value().isEmpty()) {
            List<MigProfile> profiles = read.value().get(0).migProfiles();
            if (profiles.isEmpty()) {
                return c.fail("no MIG profile read").list();
            }
            c.expect("migProfiles[0].name", expected.get("migProfiles[0].name").asText(), profiles.get(0).name());
            List<MigPlacement> want = new ArrayList<>();
            expected.path("migProfiles[0].placements").forEach(n -> want.add(new MigPlacement(n.path("start").asInt(), n.path("size").asInt())));
            c.expect("migProfiles[0].placements", want, profiles.get(0).placements());
        }
        return c.list();
    }
}
