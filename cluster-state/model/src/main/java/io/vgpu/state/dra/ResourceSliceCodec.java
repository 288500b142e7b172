package io.vgpu.state.dra;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vgpu.state.codec.Decoded;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code resource.k8s.io/v1} ResourceSlice JSON ↔ {@link SliceObject}: the one place that knows the
 * wire shape, used by the node agent's publisher and the simulator alike, so both emit identical JSON
 * for identical content (fields in a fixed order; {@code timeAdded} of taints is the API server's and
 * neither written nor compared). Decoding is tolerant of what the API server adds (status, managed
 * fields, timestamps) and strict about what this driver reads: a malformed attribute, capacity or
 * quantity is an error, never a guess. Thread-safe.
 */
public final class ResourceSliceCodec {

    /** {@code apiVersion} of the objects written. */
    public static final String API_VERSION = "resource.k8s.io/v1";
    /** {@code kind}. */
    public static final String KIND = "ResourceSlice";

    private static final ObjectMapper JSON = new ObjectMapper();

    private ResourceSliceCodec() {
    }

    /** The object as JSON text. */
    public static String encode(SliceObject slice) {
        try {
            return JSON.writeValueAsString(toJson(slice));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The object as a JSON tree (a fresh one per call). */
    public static ObjectNode toJson(SliceObject slice) {
        ObjectNode root = JSON.createObjectNode();
        root.put("apiVersion", API_VERSION);
        root.put("kind", KIND);
        ObjectNode meta = root.putObject("metadata");
        meta.put("name", slice.name());
        if (!slice.resourceVersion().isEmpty()) {
            meta.put("resourceVersion", slice.resourceVersion());
        }
        slice.owner().ifPresent(owner -> {
            ObjectNode ref = meta.putArray("ownerReferences").addObject();
            ref.put("apiVersion", "v1");
            ref.put("kind", "Node");
            ref.put("name", owner.name());
            ref.put("uid", owner.uid());
            ref.put("controller", true);
        });
        SliceContent content = slice.content();
        ObjectNode spec = root.putObject("spec");
        spec.put("driver", content.driver());
        spec.put("nodeName", content.nodeName());
        ObjectNode pool = spec.putObject("pool");
        pool.put("name", content.pool().name());
        pool.put("generation", content.pool().generation());
        pool.put("resourceSliceCount", content.pool().resourceSliceCount());
        ArrayNode devices = spec.putArray("devices");
        content.devices().forEach(d -> device(devices.addObject(), d));
        return root;
    }

    private static void device(ObjectNode out, SliceDevice device) {
        out.put("name", device.name());
        if (device.allowMultipleAllocations()) {
            out.put("allowMultipleAllocations", true);
        }
        ObjectNode attributes = out.putObject("attributes");
        device.attributes().forEach((name, value) -> {
            ObjectNode a = attributes.putObject(name);
            if (value instanceof DeviceAttribute.IntValue v) {
                a.put("int", v.value());
            } else if (value instanceof DeviceAttribute.BoolValue v) {
                a.put("bool", v.value());
            } else if (value instanceof DeviceAttribute.StringValue v) {
                a.put("string", v.value());
            } else if (value instanceof DeviceAttribute.VersionValue v) {
                a.put("version", v.value());
            }
        });
        ObjectNode capacity = out.putObject("capacity");
        device.capacity().forEach((name, c) -> {
            ObjectNode node = capacity.putObject(name);
            node.put("value", c.value().toString());
            c.requestPolicy().ifPresent(p -> {
                ObjectNode policy = node.putObject("requestPolicy");
                p.defaultValue().ifPresent(v -> policy.put("default", v.toString()));
                if (!p.validValues().isEmpty()) {
                    ArrayNode values = policy.putArray("validValues");
                    p.validValues().forEach(v -> values.add(v.toString()));
                }
                p.validRange().ifPresent(r -> {
                    ObjectNode range = policy.putObject("validRange");
                    range.put("min", r.min().toString());
                    r.max().ifPresent(v -> range.put("max", v.toString()));
                    r.step().ifPresent(v -> range.put("step", v.toString()));
                });
            });
        });
        if (!device.taints().isEmpty()) {
            ArrayNode taints = out.putArray("taints");
            for (DeviceTaint t : device.taints()) {
                ObjectNode taint = taints.addObject();
                taint.put("key", t.key());
                if (!t.value().isEmpty()) {
                    taint.put("value", t.value());
                }
                taint.put("effect", t.effect());
            }
        }
    }

    /** Decodes JSON text; never throws. */
    public static Decoded<SliceObject> decode(String json) {
        JsonNode root;
        try {
            root = JSON.readTree(json == null ? "" : json);
        } catch (JsonProcessingException e) {
            return Decoded.err("not JSON: " + e.getOriginalMessage());
        }
        return fromJson(root);
    }

    /** Decodes a JSON tree; never throws. */
    public static Decoded<SliceObject> fromJson(JsonNode root) {
        try {
            return Decoded.ok(read(root));
        } catch (IllegalArgumentException e) {
            return Decoded.err(e.getMessage());
        }
    }

    private static SliceObject read(JsonNode root) {
        require(root != null && root.isObject(), "a ResourceSlice must be a JSON object");
        require(KIND.equals(root.path("kind").asText(KIND)), "kind is " + root.path("kind").asText() + ", not " + KIND);
        JsonNode meta = root.path("metadata");
        String name = meta.path("name").asText("");
        Optional<SliceObject.NodeOwner> owner = Optional.empty();
        for (JsonNode ref : meta.path("ownerReferences")) {
            if ("Node".equals(ref.path("kind").asText()) && ref.path("controller").asBoolean(false)) {
                owner = Optional.of(new SliceObject.NodeOwner(ref.path("name").asText(""), ref.path("uid").asText("")));
            }
        }
        JsonNode spec = root.path("spec");
        require(spec.isObject(), "spec is missing");
        JsonNode pool = spec.path("pool");
        List<SliceDevice> devices = new ArrayList<>();
        for (JsonNode d : spec.path("devices")) {
            devices.add(readDevice(d));
        }
        SliceContent content = new SliceContent(spec.path("driver").asText(""), spec.path("nodeName").asText(""),
                new SliceContent.Pool(pool.path("name").asText(""), pool.path("generation").asLong(0),
                        pool.path("resourceSliceCount").asLong(0)), devices);
        return new SliceObject(name, meta.path("resourceVersion").asText(""), owner, content);
    }

    private static SliceDevice readDevice(JsonNode d) {
        String name = d.path("name").asText("");
        Map<String, DeviceAttribute> attributes = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = d.path("attributes").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            attributes.put(e.getKey(), readAttribute(name, e.getKey(), e.getValue()));
        }
        Map<String, DeviceCapacity> capacity = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = d.path("capacity").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String at = "device " + name + " capacity " + e.getKey();
            JsonNode c = e.getValue();
            Optional<DeviceCapacity.RequestPolicy> policy = Optional.empty();
            JsonNode p = c.path("requestPolicy");
            if (p.isObject()) {
                List<Quantity> values = new ArrayList<>();
                for (JsonNode v : p.path("validValues")) {
                    values.add(quantity(v, at + " validValues"));
                }
                Optional<DeviceCapacity.ValidRange> range = Optional.empty();
                JsonNode r = p.path("validRange");
                if (r.isObject()) {
                    range = Optional.of(new DeviceCapacity.ValidRange(quantity(r.path("min"), at + " validRange.min"),
                            optionalQuantity(r, "max", at), optionalQuantity(r, "step", at)));
                }
                policy = Optional.of(new DeviceCapacity.RequestPolicy(optionalQuantity(p, "default", at), values, range));
            }
            capacity.put(e.getKey(), new DeviceCapacity(quantity(c.path("value"), at + " value"), policy));
        }
        List<DeviceTaint> taints = new ArrayList<>();
        for (JsonNode t : d.path("taints")) {
            taints.add(new DeviceTaint(t.path("key").asText(""), t.path("value").asText(""), t.path("effect").asText("")));
        }
        return new SliceDevice(name, attributes, capacity, d.path("allowMultipleAllocations").asBoolean(false), taints);
    }

    private static DeviceAttribute readAttribute(String device, String name, JsonNode a) {
        String at = "device " + device + " attribute " + name;
        require(a.isObject() && a.size() == 1, at + ": exactly one of int, bool, string, version must be set");
        Map.Entry<String, JsonNode> only = a.fields().next();
        JsonNode v = only.getValue();
        return switch (only.getKey()) {
            case "int" -> {
                require(v.isIntegralNumber() && v.canConvertToLong(), at + ": int is not an integer");
                yield new DeviceAttribute.IntValue(v.asLong());
            }
            case "bool" -> {
                require(v.isBoolean(), at + ": bool is not a boolean");
                yield new DeviceAttribute.BoolValue(v.asBoolean());
            }
            case "string" -> {
                require(v.isTextual(), at + ": string is not a string");
                yield new DeviceAttribute.StringValue(v.asText());
            }
            case "version" -> {
                require(v.isTextual(), at + ": version is not a string");
                yield new DeviceAttribute.VersionValue(v.asText());
            }
            default -> throw new IllegalArgumentException(at + ": unknown value type " + only.getKey());
        };
    }

    private static Optional<Quantity> optionalQuantity(JsonNode parent, String field, String at) {
        JsonNode v = parent.get(field);
        return v == null || v.isNull() ? Optional.empty() : Optional.of(quantity(v, at + " " + field));
    }

    private static Quantity quantity(JsonNode v, String at) {
        require(v != null && (v.isTextual() || v.isNumber()), at + ": a quantity is required");
        try {
            return Quantity.parse(v.asText());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(at + ": " + e.getMessage(), e);
        }
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
