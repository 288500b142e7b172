package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/**
 * Runs the vectors of one {@code kind} of the node-side vector files ({@code node-deviceplugin.json},
 * schema {@code hami-node-deviceplugin-vectors/v1}; {@code monitor-metrics.json}, schema
 * {@code hamicore-monitor-vectors/1}).
 *
 * <p>Found by naming convention: kind {@code pop_next_container} is served by
 * {@code io.vgpu.deviceplugin.conformance.PopNextContainerVectors} (snake case to camel case +
 * {@code Vectors}) with a public no-argument constructor. A kind without one fails all its vectors.
 */
public interface NodeVectorFamily {

    /**
     * @param document the whole vector file (for shared sections such as {@code layout_reference})
     * @param vector   one vector ({@code id}, {@code kind}, {@code input}/{@code expected} or kind-specific fields)
     * @return mismatches; empty when the implementation agrees
     * @throws Exception anything unexpected, counted as a failure
     */
    List<String> check(JsonNode document, JsonNode vector) throws Exception;
}
