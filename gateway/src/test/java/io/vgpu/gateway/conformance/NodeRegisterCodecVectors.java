package io.vgpu.gateway.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.codec.NodeRegistration;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.MigPlacement;
import io.vgpu.state.model.MigProfile;
import io.vgpu.state.model.Vendor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Kind {@code node_register_codec}: the register / pair-score annotations and the legacy format
 * against {@link NodeRegisterCodec}. An expected {@code error_kind: "json"} accepts any decode error
 * other than the codec's fixed, non-JSON messages.
 */
public final class NodeRegisterCodecVectors implements VectorFamily {

    /** Used reflectively by the conformance harness. */
    public NodeRegisterCodecVectors() {
    }

    @Override
    public List<String> check(JsonNode defaults, JsonNode testCase) {
        JsonNode in = testCase.path("input");
        JsonNode expect = testCase.path("expect");
        Mismatches m = new Mismatches();
        switch (testCase.path("op").asText()) {
            case "nvidia_get_node_devices" -> getNodeDevices(in, expect, m);
            case "marshal_node_devices" ->
                    m.expect("annotation", expect.path("annotation").asText(), NodeRegisterCodec.encode(devices(in.path("devices"))));
            case "marshal_mig_profile" -> m.expect("json", expect.path("json").asText(),
                    NodeRegisterCodec.encodeMigProfile(VectorJson.migProfiles(VectorJson.MAPPER.createArrayNode().add(in.path("profile"))).get(0)));
            case "decode_pair_scores" -> decoded(NodeRegisterCodec.decodePairScores(in.path("annotation").asText()), expect, m,
                    scores -> m.expectJson("pair_scores", expect.path("pair_scores"), VectorJson.MAPPER.valueToTree(scores)));
            case "legacy_decode_node_devices" -> decoded(NodeRegisterCodec.decodeLegacy(in.path("annotation").asText()), expect, m,
                    devices -> m.expectJson("devices", expect.path("devices"), devicesJson(devices, false)));
            case "legacy_encode_node_devices" ->
                    m.expect("annotation", expect.path("annotation").asText(), NodeRegisterCodec.encodeLegacy(devices(in.path("devices"))));
            case "legacy_roundtrip" -> legacyRoundtrip(in, expect, m);
            default -> m.fail("unknown op " + testCase.path("op"));
        }
        return m.list();
    }

    private static void getNodeDevices(JsonNode in, JsonNode expect, Mismatches m) {
        Map<String, String> annotations = VectorJson.stringMap(in.path("annotations"));
        decoded(NodeRegisterCodec.read(annotations), expect, m, (NodeRegistration r) -> {
            m.expectJson("devices", expect.path("devices"), devicesJson(r.devices(), true));
            if (expect.has("pair_scores")) {
                m.expectJson("pair_scores", expect.get("pair_scores"), VectorJson.MAPPER.valueToTree(r.pairScores()));
            }
        });
    }

    private static void legacyRoundtrip(JsonNode in, JsonNode expect, Mismatches m) {
        List<GpuDevice> devices = devices(in.path("devices"));
        String encoded = NodeRegisterCodec.encodeLegacy(devices);
        if (expect.has("annotation")) {
            m.expect("annotation", expect.get("annotation").asText(), encoded);
        }
        Decoded<List<GpuDevice>> back = NodeRegisterCodec.decodeLegacy(encoded);
        if (!back.isOk()) {
            m.fail("decode of the encoding failed: " + back.error());
        } else if (expect.path("decoded_equals_input").asBoolean(false)) {
            m.expect("decoded", devices, back.value());
        }
    }

    /** Checks ok/error and hands an Ok value to {@code onOk}. */
    private static <T> void decoded(Decoded<T> result, JsonNode expect, Mismatches m, Consumer<T> onOk) {
        boolean wantOk = expect.path("ok").asBoolean(true);
        m.expect("ok", wantOk, result.isOk());
        if (wantOk && result.isOk()) {
            onOk.accept(result.value());
        } else if (!wantOk && !result.isOk()) {
            if (expect.has("error")) {
                m.expect("error", expect.get("error").asText(), result.error());
            }
            if ("json".equals(expect.path("error_kind").asText(null))
                    && (result.error().equals(NodeRegisterCodec.NO_GPU) || result.error().equals(NodeRegisterCodec.MISSING_ANNOTATION))) {
                m.fail("expected a JSON error but was: " + result.error());
            }
        } else if (!result.isOk()) {
            m.fail("error was: " + result.error());
        }
    }

    /** Device records {@code id,index,count,devmem,devcore,type,numa,mode,health,migProfiles?} as model values. */
    static List<GpuDevice> devices(JsonNode array) {
        List<GpuDevice> out = new ArrayList<>();
        array.forEach(d -> out.add(new GpuDevice(VectorJson.text(d, "id"), d.path("index").asInt(), d.path("count").asInt(),
                d.path("devmem").asInt(), d.path("devcore").asInt(), VectorJson.text(d, "type"), d.path("numa").asInt(),
                VectorJson.text(d, "mode"), VectorJson.migProfiles(d.get("migProfiles")), d.path("health").asBoolean(false))));
        return out;
    }

    private static ArrayNode devicesJson(List<GpuDevice> devices, boolean withVendor) {
        ArrayNode out = VectorJson.MAPPER.createArrayNode();
        for (GpuDevice d : devices) {
            ObjectNode o = out.addObject();
            o.put("id", d.id());
            o.put("index", d.index());
            o.put("count", d.count());
            o.put("devmem", d.devmem());
            o.put("devcore", d.devcore());
            o.put("type", d.type());
            o.put("numa", d.numa());
            o.put("mode", d.mode());
            o.put("health", d.health());
            if (withVendor) {
                o.put("devicevendor", Vendor.NVIDIA);
                ArrayNode profiles = o.putArray("migProfiles");
                for (MigProfile p : d.migProfiles()) {
                    ObjectNode po = profiles.addObject();
                    po.put("name", p.name());
                    po.put("memoryMB", p.memoryMB());
                    po.put("core", p.core());
                    po.put("sliceCount", p.sliceCount());
                    ArrayNode pl = po.putArray("placements");
                    for (MigPlacement x : p.placements()) {
                        pl.addObject().put("start", x.start()).put("size", x.size());
                    }
                }
            }
        }
        return out;
    }
}
