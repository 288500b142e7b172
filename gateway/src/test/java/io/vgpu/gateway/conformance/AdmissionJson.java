package io.vgpu.gateway.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.gateway.core.quota.QuotaBook;
import io.vgpu.gateway.core.request.NvidiaConfig;

import java.util.Map;

/** Vector JSON → NVIDIA device config and quota state (shared by the request, webhook and quota runners). */
public final class AdmissionJson {

    private AdmissionJson() {
    }

    /**
     * An {@code nvidia:} config object ({@code resourceCountName}, ..., {@code runtimeClassName});
     * absent fields take {@link NvidiaConfig#defaults()}.
     */
    public static NvidiaConfig nvidiaConfig(JsonNode json) {
        NvidiaConfig d = NvidiaConfig.defaults();
        JsonNode j = json == null ? VectorJson.MAPPER.createObjectNode() : json;
        return new NvidiaConfig(
                j.path("resourceCountName").asText(d.resourceCountName()),
                j.path("resourceMemoryName").asText(d.resourceMemoryName()),
                j.path("resourceMemoryPercentageName").asText(d.resourceMemoryPercentageName()),
                j.path("resourceCoreName").asText(d.resourceCoreName()),
                j.path("resourcePriorityName").asText(d.resourcePriorityName()),
                j.path("overwriteEnv").asBoolean(d.overwriteEnv()),
                j.path("defaultMemory").asInt(d.defaultMemory()),
                j.path("defaultCores").asInt(d.defaultCores()),
                j.path("defaultGPUNum").asInt(d.defaultGPUNum()),
                j.path("memoryFactor").asInt(d.memoryFactor()),
                j.path("gpuCorePolicy").asText(d.gpuCorePolicy()),
                j.path("runtimeClassName").asText(d.runtimeClassName()));
    }

    /**
     * A quota book from {@code {ns: {resource: {used, limit, limitSet}}}}; {@code limit} is the
     * ResourceQuota value (the book scales memory by {@code memoryFactor}).
     */
    public static QuotaBook quotaBook(JsonNode quota, NvidiaConfig nvidia, int memoryFactor) {
        QuotaBook book = new QuotaBook(nvidia.resourceMemoryName(), nvidia.resourceCoreName(), memoryFactor);
        if (quota == null || !quota.isObject()) {
            return book;
        }
        for (Map.Entry<String, JsonNode> ns : quota.properties()) {
            for (Map.Entry<String, JsonNode> res : ns.getValue().properties()) {
                JsonNode entry = res.getValue();
                if (entry.path("limitSet").asBoolean(false)) {
                    book.setLimit(ns.getKey(), res.getKey(), entry.path("limit").asLong());
                }
                long used = entry.path("used").asLong();
                if (res.getKey().equals(nvidia.resourceMemoryName())) {
                    book.addUsage(ns.getKey(), used, 0);
                } else if (res.getKey().equals(nvidia.resourceCoreName())) {
                    book.addUsage(ns.getKey(), 0, used);
                }
            }
        }
        return book;
    }
}
