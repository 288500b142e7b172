package io.vgpu.gateway.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vgpu.state.codec.AllocationStep;
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.PodDevicesCodec;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.Vendor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Kind {@code pod_devices_codec}: the pod devices string against {@link PodDevicesCodec}. For
 * {@code to_allocate_consumption} the device plugin's {@code Allocate} is applied twice; the bind phase
 * after the second is {@code success} when no vendor word is left, else {@code allocating} (unchanged).
 */
public final class PodDevicesCodecVectors implements VectorFamily {

    /** Used reflectively by the conformance harness. */
    public PodDevicesCodecVectors() {
    }

    @Override
    public List<String> check(JsonNode defaults, JsonNode testCase) {
        JsonNode in = testCase.path("input");
        JsonNode expect = testCase.path("expect");
        Mismatches m = new Mismatches();
        switch (testCase.path("op").asText()) {
            case "pod_devices_roundtrip" -> podRoundtrip(in, expect, m);
            case "decode_pod_devices" -> decodePodDevices(in, expect, m);
            case "container_devices_roundtrip" -> containerRoundtrip(in, expect, m);
            case "nvidia_patch_annotations" -> {
                List<List<ContainerDevice>> nvidia = VectorJson.podDevices(in.path("pod_devices"))
                        .getOrDefault(Vendor.NVIDIA, List.of());
                m.expectJson("annotations", expect.path("annotations"),
                        VectorJson.MAPPER.valueToTree(PodDevicesCodec.filterAnnotations(nvidia)));
            }
            case "to_allocate_consumption" -> consumption(in, expect, m);
            default -> m.fail("unknown op " + testCase.path("op"));
        }
        return m.list();
    }

    private static void podRoundtrip(JsonNode in, JsonNode expect, Mismatches m) {
        List<List<ContainerDevice>> containers = new ArrayList<>();
        in.path("containers").forEach(c -> containers.add(VectorJson.containerDevices(c)));
        String encoded = PodDevicesCodec.encode(containers);
        m.expect("annotation", expect.path("annotation").asText(), encoded);
        Decoded<List<List<ContainerDevice>>> back = PodDevicesCodec.decode(encoded);
        if (!back.isOk()) {
            m.fail("decode failed: " + back.error());
            return;
        }
        m.expectJson("decoded", expect.path("decoded"), containersJson(back.value()));
    }

    private static void containerRoundtrip(JsonNode in, JsonNode expect, Mismatches m) {
        String encoded = PodDevicesCodec.encodeContainer(VectorJson.containerDevices(in.path("devices")));
        m.expect("annotation", expect.path("annotation").asText(), encoded);
        Decoded<List<ContainerDevice>> back = PodDevicesCodec.decodeContainer(encoded);
        if (!back.isOk()) {
            m.fail("decode failed: " + back.error());
            return;
        }
        m.expectJson("decoded", expect.path("decoded"), containerJson(back.value()));
    }

    private static void decodePodDevices(JsonNode in, JsonNode expect, Mismatches m) {
        Map<String, String> vendorKeys = Map.of(Vendor.NVIDIA, in.path("key").asText(HamiAnnotations.DEVICES_TO_ALLOCATE));
        Decoded<Map<String, List<List<ContainerDevice>>>> result =
                PodDevicesCodec.decodeAnnotations(VectorJson.stringMap(in.path("annotations")), vendorKeys);
        boolean wantOk = expect.path("ok").asBoolean(true);
        m.expect("ok", wantOk, result.isOk());
        if (!result.isOk()) {
            if (expect.has("error")) {
                m.expect("error", expect.get("error").asText(), result.error());
            }
            return;
        }
        ObjectNode actual = VectorJson.MAPPER.createObjectNode();
        result.value().forEach((vendor, containers) -> actual.set(vendor, containersJson(containers)));
        m.expectJson("devices", expect.path("devices"), actual);
    }

    private static void consumption(JsonNode in, JsonNode expect, Mismatches m) {
        String annotation = in.path("annotation").asText();
        Decoded<AllocationStep> first = PodDevicesCodec.popNext(annotation);
        if (!first.isOk()) {
            m.fail("first allocate: " + first.error());
            return;
        }
        m.expect("after_first_allocate", expect.path("after_first_allocate").asText(), first.value().remaining());
        Decoded<AllocationStep> second = PodDevicesCodec.popNext(first.value().remaining());
        if (!second.isOk()) {
            m.fail("second allocate: " + second.error());
            return;
        }
        String left = second.value().remaining();
        m.expect("after_second_allocate", expect.path("after_second_allocate").asText(), left);
        m.expect("bind_phase_after_second", expect.path("bind_phase_after_second").asText(),
                PodDevicesCodec.allocationComplete(left) ? "success" : "allocating");
    }

    private static ArrayNode containersJson(List<List<ContainerDevice>> containers) {
        ArrayNode out = VectorJson.MAPPER.createArrayNode();
        containers.forEach(c -> out.add(containerJson(c)));
        return out;
    }

    private static ArrayNode containerJson(List<ContainerDevice> devices) {
        ArrayNode out = VectorJson.MAPPER.createArrayNode();
        devices.forEach(d -> out.add(VectorJson.containerDeviceJson(d, false)));
        return out;
    }
}
