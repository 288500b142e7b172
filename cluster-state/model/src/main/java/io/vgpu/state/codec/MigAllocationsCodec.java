package io.vgpu.state.codec;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

import io.vgpu.state.model.MigAllocation;

/**
 * The pod annotation {@code hami.io/vgpu-mig-allocations} (HAMi {@code pkg/device/nvidia/mig_allocations.go}).
 * {@link #decode} reads it as HAMi's {@code DecodeMigAllocations} does: Go {@code encoding/json} binding
 * (keys matched case-insensitively, unknown keys ignored, {@code null} = zero value, wrong JSON types
 * and out-of-range numbers are errors) followed by {@link MigAllocation#validate}; an empty annotation
 * means no allocations; never throws on bad input. {@link #encode} writes Go's {@code json.Marshal}
 * bytes. Pure and thread-safe.
 */
public final class MigAllocationsCodec {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    // Go's int is 64-bit; indices beyond 32 bits are nonsense and reported rather than truncated
    private static final BigInteger INT_MIN = BigInteger.valueOf(Integer.MIN_VALUE);
    private static final BigInteger INT_MAX = BigInteger.valueOf(Integer.MAX_VALUE);
    private static final BigInteger UINT32_MAX = BigInteger.ONE.shiftLeft(32).subtract(BigInteger.ONE);

    private MigAllocationsCodec() {
    }

    /**
     * Go {@code json.Marshal([]MigAllocation)}: {@code containerIndex, deviceIndex, gpuUUID, profile,
     * placement{start,size}}, then, only when present ({@code omitempty}), {@code migUUID},
     * {@code gpuInstanceID}, {@code computeInstanceID}; Go's string escaping.
     */
    public static String encode(List<MigAllocation> allocations) {
        StringBuilder b = new StringBuilder("[");
        for (MigAllocation a : allocations) {
            if (b.length() > 1) {
                b.append(',');
            }
            b.append("{\"containerIndex\":").append(a.containerIndex())
                    .append(",\"deviceIndex\":").append(a.deviceIndex())
                    .append(",\"gpuUUID\":");
            GoJsonText.appendString(b, a.gpuUuid());
            b.append(",\"profile\":");
            GoJsonText.appendString(b, a.profile());
            b.append(",\"placement\":{\"start\":").append(a.placementStart())
                    .append(",\"size\":").append(a.placementSize()).append('}');
            if (!a.migUuid().isEmpty()) {
                b.append(",\"migUUID\":");
                GoJsonText.appendString(b, a.migUuid());
            }
            a.gpuInstanceId().ifPresent(id -> b.append(",\"gpuInstanceID\":").append(id));
            a.computeInstanceId().ifPresent(id -> b.append(",\"computeInstanceID\":").append(id));
            b.append('}');
        }
        return b.append(']').toString();
    }

    /** The allocations, or the first problem in Go's words. */
    public static Decoded<List<MigAllocation>> decode(String annotation) {
        if (annotation == null || annotation.isEmpty()) {
            return Decoded.ok(List.of());
        }
        JsonNode root;
        try {
            root = MAPPER.readTree(annotation);
        } catch (JsonProcessingException e) {
            return Decoded.err("invalid JSON: " + e.getOriginalMessage());
        }
        if (root == null || root.isMissingNode()) {
            return Decoded.err("unexpected end of JSON input");
        }
        if (root.isNull()) {
            return Decoded.ok(List.of());
        }
        if (!root.isArray()) {
            return Decoded.err("json: cannot unmarshal " + kind(root) + " into Go value of type []nvidia.MigAllocation");
        }
        List<MigAllocation> out = new ArrayList<>();
        for (JsonNode element : root) {
            Optional<String> error = element(element, out);
            if (error.isPresent()) {
                return Decoded.err(error.get());
            }
        }
        return MigAllocation.validate(out).<Decoded<List<MigAllocation>>>map(Decoded::err)
                .orElseGet(() -> Decoded.ok(List.copyOf(out)));
    }

    private static Optional<String> element(JsonNode e, List<MigAllocation> out) {
        if (e.isNull()) {
            out.add(new MigAllocation(0, 0, "", "", 0, 0, "", OptionalLong.empty(), OptionalLong.empty()));
            return Optional.empty();
        }
        if (!e.isObject()) {
            return Optional.of("json: cannot unmarshal " + kind(e) + " into Go value of type nvidia.MigAllocation");
        }
        try {
            JsonNode placement = field(e, "placement");
            int start = 0;
            int size = 0;
            if (placement != null && !placement.isNull()) {
                if (!placement.isObject()) {
                    throw new BadField("json: cannot unmarshal " + kind(placement)
                            + " into Go struct field MigAllocation.placement of type device.MigPlacement");
                }
                start = (int) integer(placement, "start", INT_MIN, INT_MAX, "int");
                size = (int) integer(placement, "size", INT_MIN, INT_MAX, "int");
            }
            out.add(new MigAllocation(
                    (int) integer(e, "containerIndex", INT_MIN, INT_MAX, "int"),
                    (int) integer(e, "deviceIndex", INT_MIN, INT_MAX, "int"),
                    string(e, "gpuUUID"), string(e, "profile"), start, size, string(e, "migUUID"),
                    optionalUint32(e, "gpuInstanceID"), optionalUint32(e, "computeInstanceID")));
            return Optional.empty();
        } catch (BadField bad) {
            return Optional.of(bad.getMessage());
        }
    }

    /** Go matches keys case-insensitively; the last matching key wins. */
    private static JsonNode field(JsonNode object, String name) {
        JsonNode found = null;
        for (Map.Entry<String, JsonNode> entry : object.properties()) {
            if (entry.getKey().equalsIgnoreCase(name)) {
                found = entry.getValue();
            }
        }
        return found;
    }

    private static String string(JsonNode object, String name) {
        JsonNode v = field(object, name);
        if (v == null || v.isNull()) {
            return "";
        }
        if (!v.isTextual()) {
            throw new BadField("json: cannot unmarshal " + kind(v) + " into Go struct field MigAllocation." + name
                    + " of type string");
        }
        return v.textValue();
    }

    private static long integer(JsonNode object, String name, BigInteger min, BigInteger max, String goType) {
        JsonNode v = field(object, name);
        if (v == null || v.isNull()) {
            return 0;
        }
        if (!v.isIntegralNumber() || v.bigIntegerValue().compareTo(min) < 0 || v.bigIntegerValue().compareTo(max) > 0) {
            throw new BadField("json: cannot unmarshal " + (v.isNumber() ? "number " + v.asText() : kind(v))
                    + " into Go struct field MigAllocation." + name + " of type " + goType);
        }
        return v.longValue();
    }

    private static OptionalLong optionalUint32(JsonNode object, String name) {
        JsonNode v = field(object, name);
        if (v == null || v.isNull()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(integer(object, name, BigInteger.ZERO, UINT32_MAX, "uint32"));
    }

    private static String kind(JsonNode v) {
        if (v.isTextual()) {
            return "string";
        }
        if (v.isNumber()) {
            return "number";
        }
        if (v.isBoolean()) {
            return "bool";
        }
        return v.isArray() ? "array" : "object";
    }

    /** A field of the wrong JSON type or range; caught in this class only. */
    private static final class BadField extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BadField(String message) {
            super(message, null, false, false);
        }
    }
}
