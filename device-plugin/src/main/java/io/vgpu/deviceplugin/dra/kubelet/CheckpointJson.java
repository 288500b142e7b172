package io.vgpu.deviceplugin.dra.kubelet;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vgpu.deviceplugin.cdi.CdiJson;
import io.vgpu.deviceplugin.dra.prepare.ClaimRef;
import io.vgpu.deviceplugin.dra.prepare.KubeletDevice;
import io.vgpu.deviceplugin.dra.prepare.PreparedClaim;
import io.vgpu.deviceplugin.dra.prepare.Share;
import io.vgpu.state.dra.DraNames;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The checkpoint's JSON: {@code {"version":1,"driver":"gpu.vgpu.io","claims":[…]}}, one entry per
 * prepared claim with everything {@link PreparedClaim} holds (the CDI spec embedded as CDI JSON), so
 * that the answer, the files and the guard's shares can all be rebuilt from it alone. A document
 * with another version or driver is refused rather than guessed at. Pure.
 */
final class CheckpointJson {

    static final int VERSION = 1;
    private static final ObjectMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private CheckpointJson() {
    }

    static String encode(Map<String, PreparedClaim> claims) {
        ObjectNode root = JSON.createObjectNode().put("version", VERSION).put("driver", DraNames.DRIVER);
        ArrayNode list = root.putArray("claims");
        for (PreparedClaim p : claims.values()) {
            ObjectNode c = list.addObject().put("namespace", p.ref().namespace()).put("name", p.ref().name())
                    .put("uid", p.ref().uid()).put("specFile", p.specFileName()).put("claimDir", p.claimDir());
            strings(c.putArray("requests"), p.requests());
            ArrayNode devices = c.putArray("devices");
            for (KubeletDevice d : p.devices()) {
                ObjectNode device = devices.addObject().put("pool", d.poolName()).put("device", d.deviceName());
                strings(device.putArray("requestNames"), d.requestNames());
                strings(device.putArray("cdiDeviceIds"), d.cdiDeviceIds());
                d.shareId().ifPresent(s -> device.put("shareId", s));
            }
            ArrayNode shares = c.putArray("shares");
            for (Share s : p.shares()) {
                ObjectNode share = shares.addObject().put("device", s.deviceName()).put("memory", s.memoryBytes())
                        .put("cores", s.cores()).put("slots", s.slots());
                s.shareId().ifPresent(id -> share.put("shareId", id));
            }
            p.spec().ifPresent(spec -> c.set("spec", CdiJson.tree(spec)));
        }
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a JSON tree", e);
        }
    }

    /** @throws IllegalArgumentException naming what cannot be read */
    static Map<String, PreparedClaim> decode(String text) {
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not valid JSON: " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject() || root.path("version").asInt() != VERSION
                || !DraNames.DRIVER.equals(root.path("driver").asText())) {
            throw new IllegalArgumentException("not a version " + VERSION + " checkpoint of " + DraNames.DRIVER);
        }
        Map<String, PreparedClaim> out = new LinkedHashMap<>();
        for (JsonNode c : root.path("claims")) {
            ClaimRef ref = new ClaimRef(text(c, "namespace"), text(c, "name"), text(c, "uid"));
            List<KubeletDevice> devices = new ArrayList<>();
            for (JsonNode d : c.path("devices")) {
                devices.add(new KubeletDevice(strings(d.path("requestNames")), text(d, "pool"), text(d, "device"),
                        strings(d.path("cdiDeviceIds")), optional(d, "shareId")));
            }
            List<Share> shares = new ArrayList<>();
            for (JsonNode s : c.path("shares")) {
                shares.add(new Share(text(s, "device"), optional(s, "shareId"), s.path("memory").asLong(),
                        s.path("cores").asLong(), s.path("slots").asLong()));
            }
            out.put(ref.uid(), new PreparedClaim(ref, devices,
                    c.hasNonNull("spec") ? Optional.of(CdiJson.fromTree(c.get("spec"))) : Optional.empty(),
                    text(c, "specFile"), text(c, "claimDir"), strings(c.path("requests")), shares));
        }
        return out;
    }

    private static String text(JsonNode n, String field) {
        if (!n.hasNonNull(field) || !n.get(field).isTextual()) {
            throw new IllegalArgumentException("a checkpoint entry lacks " + field);
        }
        return n.get(field).asText();
    }

    private static Optional<String> optional(JsonNode n, String field) {
        return n.hasNonNull(field) ? Optional.of(n.get(field).asText()) : Optional.empty();
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(v -> out.add(v.asText()));
        return out;
    }

    private static void strings(ArrayNode into, List<String> values) {
        values.forEach(into::add);
    }
}
