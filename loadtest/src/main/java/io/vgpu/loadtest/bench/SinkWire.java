package io.vgpu.loadtest.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vgpu.gateway.core.port.BindingOutcome;
import io.vgpu.gateway.core.port.LockOutcome;
import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.ReleaseOutcome;
import io.vgpu.gateway.core.port.WriteOutcome;

import java.io.UncheckedIOException;

/**
 * The JSON between the {@link SinkServer} (the fast API sink, in the driver's JVM) and a {@link RemoteSink} (in a
 * replica's JVM): watch events as one JSON object a line ({@code {"e":"node"|"added"|"updated"|"deleted","o":..}}),
 * and the outcomes of the calls. Objects are the gateway's records as Jackson writes them.
 */
final class SinkWire {

    static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private SinkWire() {
    }

    static String event(String kind, Object object) {
        ObjectNode o = JSON.createObjectNode().put("e", kind);
        o.set("o", JSON.valueToTree(object));
        return o + "\n";
    }

    static NodeObservation node(JsonNode o) {
        return read(o, NodeObservation.class);
    }

    static ObservedPod pod(JsonNode o) {
        return o == null || o.isNull() ? null : read(o, ObservedPod.class);
    }

    static ObjectNode write(WriteOutcome w) {
        ObjectNode o = JSON.createObjectNode();
        if (w instanceof WriteOutcome.Refused r) {
            return o.put("w", "refused").put("status", r.status()).put("message", r.message());
        }
        return w.ok() ? o.put("w", "written") : o.put("w", "unreachable").put("message", w.message());
    }

    static WriteOutcome write(JsonNode o) {
        return switch (o.path("w").asText()) {
            case "written" -> new WriteOutcome.Written();
            case "refused" -> new WriteOutcome.Refused(o.path("status").asInt(), o.path("message").asText());
            default -> new WriteOutcome.Unreachable(o.path("message").asText("no answer"));
        };
    }

    static ObjectNode binding(BindingOutcome b) {
        ObjectNode o = JSON.createObjectNode();
        if (b instanceof BindingOutcome.Bound bound) {
            return o.put("b", "bound").put("already", bound.alreadyBound());
        }
        if (b instanceof BindingOutcome.BoundElsewhere e) {
            return o.put("b", "elsewhere").put("node", e.node()).put("message", e.message());
        }
        o.put("b", "failed").set("write", write(((BindingOutcome.Failed) b).write()));
        return o;
    }

    static BindingOutcome binding(JsonNode o) {
        return switch (o.path("b").asText()) {
            case "bound" -> new BindingOutcome.Bound(o.path("already").asBoolean());
            case "elsewhere" -> new BindingOutcome.BoundElsewhere(o.path("node").asText(), o.path("message").asText());
            default -> new BindingOutcome.Failed(write(o.path("write")));
        };
    }

    static ObjectNode lock(LockOutcome l) {
        ObjectNode o = JSON.createObjectNode();
        if (l instanceof LockOutcome.Acquired a) {
            return o.put("l", "acquired").put("how", a.how().name()).put("value", a.lockValue());
        }
        return o.put("l", l instanceof LockOutcome.Contended ? "contended" : "failed").put("message", l.message());
    }

    static LockOutcome lock(JsonNode o) {
        return switch (o.path("l").asText()) {
            case "acquired" -> new LockOutcome.Acquired(LockOutcome.How.valueOf(o.path("how").asText()),
                    o.path("value").asText());
            case "contended" -> new LockOutcome.Contended(o.path("message").asText());
            default -> new LockOutcome.Failed(o.path("message").asText("no answer"));
        };
    }

    static ObjectNode release(ReleaseOutcome r) {
        ObjectNode o = JSON.createObjectNode();
        return r instanceof ReleaseOutcome.Released rel ? o.put("r", "released").put("removed", rel.removed())
                : o.put("r", "failed").put("message", ((ReleaseOutcome.Failed) r).message());
    }

    static ReleaseOutcome release(JsonNode o) {
        return "released".equals(o.path("r").asText()) ? new ReleaseOutcome.Released(o.path("removed").asBoolean())
                : new ReleaseOutcome.Failed(o.path("message").asText("no answer"));
    }

    private static <T> T read(JsonNode o, Class<T> type) {
        try {
            return JSON.treeToValue(o, type);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
