package io.vgpu.gateway.extender;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;

/**
 * kube-scheduler's {@code ExtenderFilterResult} (k8s.io/kube-scheduler/extender/v1) on the wire: Go
 * field names, no {@code omitempty}, so every field is always present and null when unset (spec §2.3).
 *
 * @param nodes                      {@code Nodes}: a NodeList ({@code {"items":[...]}}) in simulation mode, else null
 * @param nodeNames                  {@code NodeNames}: the chosen node (cache mode), or the request's list (pass-through)
 * @param failedNodes                {@code FailedNodes}: node → reason
 * @param failedAndUnresolvableNodes {@code FailedAndUnresolvableNodes}: never filled, as in HAMi
 * @param error                      {@code Error}: "" on success
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({"Nodes", "NodeNames", "FailedNodes", "FailedAndUnresolvableNodes", "Error"})
public record ExtenderFilterResult(
        @JsonProperty("Nodes") JsonNode nodes,
        @JsonProperty("NodeNames") List<String> nodeNames,
        @JsonProperty("FailedNodes") Map<String, String> failedNodes,
        @JsonProperty("FailedAndUnresolvableNodes") Map<String, String> failedAndUnresolvableNodes,
        @JsonProperty("Error") String error) {

    /** A whole-request failure: only {@code Error} is set. */
    public static ExtenderFilterResult error(String message) {
        return new ExtenderFilterResult(null, null, null, null, message == null ? "" : message);
    }
}
