package io.vgpu.state.dra;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vgpu.state.codec.Decoded;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The JSON of {@link VgpuConfig}, decoded strictly as Kubernetes drivers decode their opaque
 * parameters (NVIDIA's {@code GpuConfig} does the same): the {@code apiVersion} must be
 * {@value DraNames#CONFIG_API_VERSION}, the {@code kind} {@value DraNames#CONFIG_KIND}, and an
 * unknown field, a repeated key, a wrong type or an out-of-range value is an error that names it.
 * Such an error fails the claim it came with (never the whole call, never a default).
 *
 * <pre>
 * {"apiVersion": "gpu.vgpu.io/v1alpha1", "kind": "VgpuConfig",
 *  "taskPriority": 0, "coreUtilizationPolicy": "force"}
 * </pre>
 *
 * A {@code null} value is the same as an absent field. Pure; thread-safe.
 */
public final class VgpuConfigCodec {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .build();
    private static final String API_VERSION = "apiVersion";
    private static final String KIND = "kind";
    private static final String TASK_PRIORITY = "taskPriority";
    private static final String CORE_POLICY = "coreUtilizationPolicy";
    private static final List<String> FIELDS = List.of(API_VERSION, KIND, TASK_PRIORITY, CORE_POLICY);

    private VgpuConfigCodec() {
    }

    /** Decodes one {@code parameters} object; the error says what is wrong in words a user can act on. */
    public static Decoded<VgpuConfig> decode(String json) {
        JsonNode root;
        try {
            root = json == null ? null : MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            return Decoded.err("parameters are not valid JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            return Decoded.err("parameters must be a JSON object");
        }
        String apiVersion = text(root, API_VERSION);
        if (!DraNames.CONFIG_API_VERSION.equals(apiVersion)) {
            return Decoded.err("unsupported apiVersion " + quoted(apiVersion) + " (this driver reads "
                    + DraNames.CONFIG_API_VERSION + ")");
        }
        String kind = text(root, KIND);
        if (!DraNames.CONFIG_KIND.equals(kind)) {
            return Decoded.err("unknown kind " + quoted(kind) + " in " + DraNames.CONFIG_API_VERSION
                    + " (this driver reads " + DraNames.CONFIG_KIND + ")");
        }
        List<String> unknown = new ArrayList<>();
        for (Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                unknown.add(name);
            }
        }
        if (!unknown.isEmpty()) {
            return Decoded.err("unknown field" + (unknown.size() > 1 ? "s " : " ") + String.join(", ", unknown.stream()
                    .map(VgpuConfigCodec::quoted).toList()) + " in " + DraNames.CONFIG_KIND + " (known: "
                    + TASK_PRIORITY + ", " + CORE_POLICY + ")");
        }
        return priority(root.get(TASK_PRIORITY)).flatMap(priority -> policy(root.get(CORE_POLICY))
                .map(policy -> new VgpuConfig(priority, policy)));
    }

    /** The JSON the node agent decodes back to {@code config}: apiVersion and kind first, absent fields left out. */
    public static String encode(VgpuConfig config) {
        ObjectNode out = MAPPER.createObjectNode()
                .put(API_VERSION, DraNames.CONFIG_API_VERSION)
                .put(KIND, DraNames.CONFIG_KIND);
        config.taskPriority().ifPresent(p -> out.put(TASK_PRIORITY, p));
        config.coreUtilizationPolicy().ifPresent(p -> out.put(CORE_POLICY, p.wire()));
        return out.toString();
    }

    private static Decoded<OptionalInt> priority(JsonNode value) {
        if (value == null || value.isNull()) {
            return Decoded.ok(OptionalInt.empty());
        }
        if (!value.isIntegralNumber() || !value.canConvertToInt() || value.intValue() < 0) {
            return Decoded.err(TASK_PRIORITY + " must be an integer from 0 (highest priority) to "
                    + Integer.MAX_VALUE + ", got " + value);
        }
        return Decoded.ok(OptionalInt.of(value.intValue()));
    }

    private static Decoded<Optional<CorePolicy>> policy(JsonNode value) {
        if (value == null || value.isNull()) {
            return Decoded.ok(Optional.empty());
        }
        Optional<CorePolicy> policy = value.isTextual() ? CorePolicy.parse(value.textValue()) : Optional.empty();
        if (policy.isEmpty()) {
            return Decoded.err(CORE_POLICY + " must be \"default\", \"force\" or \"disable\", got " + value);
        }
        return Decoded.ok(policy);
    }

    private static String text(JsonNode root, String field) {
        JsonNode v = root.get(field);
        return v != null && v.isTextual() ? v.textValue() : null;
    }

    private static String quoted(String text) {
        return text == null ? "(none)" : "\"" + text + "\"";
    }
}
