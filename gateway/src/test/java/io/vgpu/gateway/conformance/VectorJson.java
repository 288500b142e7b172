package io.vgpu.gateway.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vgpu.gateway.core.Container;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.ContainerRequest;
import io.vgpu.state.model.DeviceGrant;
import io.vgpu.state.model.DeviceUsage;
import io.vgpu.state.model.MigPlacement;
import io.vgpu.state.model.MigProfile;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Conversions between the vectors' shared JSON shapes (conformance/README.md, "Shared conventions")
 * and the model's records. Shared by every {@link VectorFamily}.
 */
public final class VectorJson {

    /** One mapper for all vector reading. */
    public static final ObjectMapper MAPPER = new ObjectMapper();

    private VectorJson() {
    }

    /** {@code node.get(field)} or {@code fallback.get(field)} when the first is absent or null. */
    public static JsonNode field(JsonNode node, JsonNode fallback, String field) {
        JsonNode v = node == null ? null : node.get(field);
        if ((v == null || v.isNull()) && fallback != null) {
            v = fallback.get(field);
        }
        return v;
    }

    /** A string field or "" when absent/null. */
    public static String text(JsonNode node, String field) {
        JsonNode v = node == null ? null : node.get(field);
        return v == null || v.isNull() ? "" : v.asText();
    }

    /** Overlays {@code override} on a copy of {@code base} (shallow), both objects; nulls allowed. */
    public static ObjectNode merged(JsonNode base, JsonNode override) {
        ObjectNode out = MAPPER.createObjectNode();
        if (base != null && base.isObject()) {
            out.setAll((ObjectNode) base.deepCopy());
        }
        if (override != null && override.isObject()) {
            out.setAll((ObjectNode) override.deepCopy());
        }
        return out;
    }

    /**
     * A device record ({@code id,index,used,count,usedmem,totalmem,usedcores,totalcore,numa,type,health,
     * mode,migProfiles}) as a usage view; missing fields come from {@code defaults} (the file's
     * {@code device_fields}), then from zero values.
     */
    public static DeviceUsage deviceUsage(JsonNode d, JsonNode defaults) {
        ObjectNode m = merged(defaults, d);
        return new DeviceUsage(text(m, "id"), m.path("index").asInt(), m.path("used").asInt(),
                m.path("count").asInt(), m.path("usedmem").asInt(), m.path("totalmem").asInt(),
                m.path("usedcores").asInt(), m.path("totalcore").asInt(), m.path("numa").asInt(),
                text(m, "type"), m.path("health").asBoolean(false), text(m, "mode"), migProfiles(m.get("migProfiles")),
                List.of());
    }

    /** A list of device records. */
    public static List<DeviceUsage> deviceUsages(JsonNode array, JsonNode defaults) {
        List<DeviceUsage> out = new ArrayList<>();
        if (array != null) {
            array.forEach(d -> out.add(deviceUsage(d, defaults)));
        }
        return out;
    }

    /** MIG profiles ({@code name,memoryMB,core,sliceCount,placements[{start,size}]}); null → empty. */
    public static List<MigProfile> migProfiles(JsonNode array) {
        List<MigProfile> out = new ArrayList<>();
        if (array != null && array.isArray()) {
            for (JsonNode p : array) {
                List<MigPlacement> placements = new ArrayList<>();
                p.path("placements").forEach(pl -> placements.add(
                        new MigPlacement(pl.path("start").asInt(), pl.path("size").asInt())));
                out.add(new MigProfile(text(p, "name"), p.path("memoryMB").asInt(), p.path("core").asInt(),
                        p.path("sliceCount").asInt(), placements));
            }
        }
        return out;
    }

    /** A container request ({@code nums,type,memreq,mempercentagereq,coresreq}). */
    public static ContainerRequest request(JsonNode r) {
        return new ContainerRequest(r.path("nums").asInt(), text(r, "type"), r.path("memreq").asInt(),
                r.path("mempercentagereq").asInt(), r.path("coresreq").asInt());
    }

    /** A request as vector JSON. */
    public static ObjectNode requestJson(ContainerRequest r) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("nums", r.nums());
        o.put("type", r.type());
        o.put("memreq", r.memreq());
        o.put("mempercentagereq", r.mempercentagereq());
        o.put("coresreq", r.coresreq());
        return o;
    }

    /** A container allocation element ({@code uuid,type,usedmem,usedcores,idx?}). */
    public static ContainerDevice containerDevice(JsonNode a) {
        return new ContainerDevice(a.path("idx").asInt(), text(a, "uuid"), text(a, "type"), a.path("usedmem").asInt(),
                a.path("usedcores").asInt());
    }

    /** One container's allocation list. */
    public static List<ContainerDevice> containerDevices(JsonNode array) {
        List<ContainerDevice> out = new ArrayList<>();
        if (array != null) {
            array.forEach(a -> out.add(containerDevice(a)));
        }
        return out;
    }

    /** Pod devices {@code {"NVIDIA": [[alloc...], ...]}}, vendor order kept. */
    public static Map<String, List<List<ContainerDevice>>> podDevices(JsonNode pd) {
        Map<String, List<List<ContainerDevice>>> out = new LinkedHashMap<>();
        if (pd != null) {
            Iterator<Map.Entry<String, JsonNode>> it = pd.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                List<List<ContainerDevice>> containers = new ArrayList<>();
                e.getValue().forEach(c -> containers.add(containerDevices(c)));
                out.put(e.getKey(), containers);
            }
        }
        return out;
    }

    /** A container allocation element as vector JSON: {@code uuid,type,usedmem,usedcores} (+ idx when asked). */
    public static ObjectNode containerDeviceJson(ContainerDevice d, boolean withIdx) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("uuid", d.uuid());
        o.put("type", d.type());
        o.put("usedmem", d.usedmem());
        o.put("usedcores", d.usedcores());
        if (withIdx) {
            o.put("idx", d.idx());
        }
        return o;
    }

    /** A collapsed grant as vector JSON: {@code uuid,type,usedmem,usedcores,slots}. */
    public static ObjectNode grantJson(DeviceGrant g) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("uuid", g.uuid());
        o.put("type", g.type());
        o.put("usedmem", g.usedmem());
        o.put("usedcores", g.usedcores());
        o.put("slots", g.slots());
        return o;
    }

    /** A list of grants as a JSON array. */
    public static ArrayNode grantsJson(List<DeviceGrant> grants) {
        ArrayNode a = MAPPER.createArrayNode();
        grants.forEach(g -> a.add(grantJson(g)));
        return a;
    }

    /** String map from a JSON object of strings (null → empty). */
    public static Map<String, String> stringMap(JsonNode obj) {
        Map<String, String> out = new LinkedHashMap<>();
        if (obj != null && obj.isObject()) {
            obj.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().isNull() ? null : e.getValue().asText()));
        }
        return out;
    }

    /** A container in the compact vector form {@code {name,limits,requests,privileged,env}}. */
    public static Container container(JsonNode c) {
        List<Container.EnvVar> env = new ArrayList<>();
        JsonNode e = c.get("env");
        if (e != null && e.isArray()) {
            e.forEach(v -> env.add(new Container.EnvVar(text(v, "name"), text(v, "value"))));
        } else if (e != null && e.isObject()) {
            e.fields().forEachRemaining(kv -> env.add(new Container.EnvVar(kv.getKey(), kv.getValue().asText())));
        }
        return new Container(text(c, "name"), stringMap(c.get("limits")), stringMap(c.get("requests")),
                c.path("privileged").asBoolean(false), env);
    }

    /** A pod in the compact vector form (README "Pods in webhook/filter cases"). */
    public static PodSpec pod(JsonNode p) {
        List<Container> init = new ArrayList<>();
        p.path("initContainers").forEach(c -> init.add(container(c)));
        List<Container> app = new ArrayList<>();
        p.path("containers").forEach(c -> app.add(container(c)));
        JsonNode rc = p.get("runtimeClassName");
        return new PodSpec(text(p, "name"), text(p, "namespace"), text(p, "uid"), text(p, "schedulerName"),
                text(p, "nodeName"), rc == null || rc.isNull() ? null : rc.asText(), stringMap(p.get("annotations")),
                stringMap(p.get("labels")), init, app);
    }

    /** JSON equality where numbers compare by value (so 15 equals 15.0) and object key order is ignored. */
    public static boolean sameJson(JsonNode a, JsonNode b) {
        if (a == null || b == null) {
            return a == b || (a == null ? b.isNull() : a.isNull());
        }
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0;
        }
        if (a.isObject() && b.isObject()) {
            if (a.size() != b.size()) {
                return false;
            }
            Iterator<String> names = a.fieldNames();
            while (names.hasNext()) {
                String n = names.next();
                if (!b.has(n) || !sameJson(a.get(n), b.get(n))) {
                    return false;
                }
            }
            return true;
        }
        if (a.isArray() && b.isArray()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (int i = 0; i < a.size(); i++) {
                if (!sameJson(a.get(i), b.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }
}
