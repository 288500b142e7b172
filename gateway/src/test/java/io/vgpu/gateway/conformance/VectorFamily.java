package io.vgpu.gateway.conformance;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/**
 * Runs the cases of one {@code hami-conformance/v1} file kind against the implementation.
 *
 * <p>Implementations are found by naming convention: kind {@code nvidia_fit} is served by
 * {@code io.vgpu.gateway.conformance.NvidiaFitVectors} (snake case to camel case + {@code Vectors}),
 * with a public no-argument constructor. A kind without an implementation fails every case of it.
 */
public interface VectorFamily {

    /**
     * Checks one case.
     *
     * @param defaults the file's {@code defaults} object (never null; empty when absent)
     * @param testCase the whole case object ({@code id}, {@code op}, {@code input}, {@code expect}, ...)
     * @return human-readable mismatches; empty when the implementation agrees with {@code expect}
     * @throws Exception anything unexpected, counted as a failure of the case
     */
    List<String> check(JsonNode defaults, JsonNode testCase) throws Exception;
}
