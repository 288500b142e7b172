package io.vgpu.deviceplugin.cdi;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * CDI specs as JSON (and, for reading specs that others wrote, YAML). Writing emits
 * {@code cdiVersion} first, then {@code kind}, annotations, devices and the spec-level edits, and
 * leaves out every empty or absent field, so the file uses only what its {@code cdiVersion} allows.
 * Reading ignores fields this model does not have (a spec written by {@code nvidia-ctk} may carry
 * newer ones); it fails only on what the model cannot hold. Pure; thread-safe.
 */
public final class CdiJson {

    private static final ObjectMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
    private static final ObjectMapper YAML = new YAMLMapper();

    private CdiJson() {
    }

    /** The spec as indented JSON. */
    public static String encode(CdiSpec spec) {
        try {
            return JSON.writeValueAsString(tree(spec)) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a JSON tree", e);
        }
    }

    /** The spec as a JSON tree (to embed it in another document, e.g. a checkpoint). */
    public static ObjectNode tree(CdiSpec spec) {
        ObjectNode root = JSON.createObjectNode();
        root.put("cdiVersion", spec.cdiVersion());
        root.put("kind", spec.kind());
        annotations(root, spec.annotations());
        ArrayNode devices = root.putArray("devices");
        for (CdiDevice d : spec.devices()) {
            ObjectNode device = devices.addObject().put("name", d.name());
            annotations(device, d.annotations());
            device.set("containerEdits", edits(d.containerEdits()));
        }
        if (!spec.containerEdits().isEmpty()) {
            root.set("containerEdits", edits(spec.containerEdits()));
        }
        return root;
    }

    /**
     * Reads a spec file's content.
     *
     * @param yaml read as YAML (a {@code .yaml} file) instead of JSON
     * @throws IllegalArgumentException naming what is wrong (syntax, a missing kind or device name, a bad path)
     */
    public static CdiSpec decode(String text, boolean yaml) {
        JsonNode root;
        try {
            root = (yaml ? YAML : JSON).readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not valid " + (yaml ? "YAML" : "JSON") + ": " + e.getOriginalMessage(), e);
        }
        return fromTree(root);
    }

    /**
     * A spec from a JSON tree ({@link #tree}).
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static CdiSpec fromTree(JsonNode root) {
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("a CDI spec must be an object");
        }
        List<CdiDevice> devices = new ArrayList<>();
        for (JsonNode d : root.path("devices")) {
            devices.add(new CdiDevice(d.path("name").asText(null), stringMap(d.path("annotations")),
                    readEdits(d.path("containerEdits"))));
        }
        return new CdiSpec(root.path("kind").asText(null), stringMap(root.path("annotations")), devices,
                readEdits(root.path("containerEdits")));
    }

    private static void annotations(ObjectNode node, Map<String, String> annotations) {
        if (!annotations.isEmpty()) {
            ObjectNode a = node.putObject("annotations");
            annotations.forEach(a::put);
        }
    }

    private static ObjectNode edits(ContainerEdits e) {
        ObjectNode out = JSON.createObjectNode();
        if (!e.env().isEmpty()) {
            ArrayNode env = out.putArray("env");
            e.env().forEach(env::add);
        }
        if (!e.deviceNodes().isEmpty()) {
            ArrayNode nodes = out.putArray("deviceNodes");
            for (DeviceNode n : e.deviceNodes()) {
                ObjectNode node = nodes.addObject().put("path", n.path());
                n.hostPath().ifPresent(v -> node.put("hostPath", v));
                n.type().ifPresent(v -> node.put("type", v));
                n.major().ifPresent(v -> node.put("major", v));
                n.minor().ifPresent(v -> node.put("minor", v));
                n.permissions().ifPresent(v -> node.put("permissions", v));
            }
        }
        if (!e.mounts().isEmpty()) {
            ArrayNode mounts = out.putArray("mounts");
            for (Mount m : e.mounts()) {
                ObjectNode mount = mounts.addObject().put("hostPath", m.hostPath()).put("containerPath", m.containerPath());
                m.type().ifPresent(v -> mount.put("type", v));
                if (!m.options().isEmpty()) {
                    ArrayNode options = mount.putArray("options");
                    m.options().forEach(options::add);
                }
            }
        }
        if (!e.hooks().isEmpty()) {
            ArrayNode hooks = out.putArray("hooks");
            for (Hook h : e.hooks()) {
                ObjectNode hook = hooks.addObject().put("hookName", h.hookName()).put("path", h.path());
                if (!h.args().isEmpty()) {
                    ArrayNode args = hook.putArray("args");
                    h.args().forEach(args::add);
                }
                if (!h.env().isEmpty()) {
                    ArrayNode env = hook.putArray("env");
                    h.env().forEach(env::add);
                }
                h.timeout().ifPresent(t -> hook.put("timeout", t));
            }
        }
        return out;
    }

    private static ContainerEdits readEdits(JsonNode e) {
        if (e.isMissingNode() || e.isNull()) {
            return ContainerEdits.NONE;
        }
        List<DeviceNode> nodes = new ArrayList<>();
        for (JsonNode n : e.path("deviceNodes")) {
            nodes.add(new DeviceNode(n.path("path").asText(null), text(n, "hostPath"), text(n, "type"),
                    number(n, "major"), number(n, "minor"), text(n, "permissions")));
        }
        List<Mount> mounts = new ArrayList<>();
        for (JsonNode m : e.path("mounts")) {
            mounts.add(new Mount(m.path("hostPath").asText(null), m.path("containerPath").asText(null), text(m, "type"),
                    strings(m.path("options"))));
        }
        List<Hook> hooks = new ArrayList<>();
        for (JsonNode h : e.path("hooks")) {
            hooks.add(new Hook(h.path("hookName").asText(null), h.path("path").asText(null), strings(h.path("args")),
                    strings(h.path("env")), h.hasNonNull("timeout") ? OptionalInt.of(h.get("timeout").asInt()) : OptionalInt.empty()));
        }
        return new ContainerEdits(strings(e.path("env")), nodes, mounts, hooks);
    }

    private static Optional<String> text(JsonNode n, String field) {
        return n.hasNonNull(field) && !n.get(field).asText().isEmpty() ? Optional.of(n.get(field).asText()) : Optional.empty();
    }

    private static OptionalLong number(JsonNode n, String field) {
        return n.hasNonNull(field) ? OptionalLong.of(n.get(field).asLong()) : OptionalLong.empty();
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(v -> out.add(v.asText()));
        return out;
    }

    private static Map<String, String> stringMap(JsonNode object) {
        Map<String, String> out = new LinkedHashMap<>();
        object.properties().forEach(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }
}
