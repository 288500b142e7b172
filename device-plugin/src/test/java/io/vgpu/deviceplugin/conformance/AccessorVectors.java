package io.vgpu.deviceplugin.conformance;

import io.vgpu.hamicore.testing.RegionImages;
import io.vgpu.hamicore.testing.UsageInfoCalls;
import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.vgpu.hamicore.RegionLoad;
import io.vgpu.hamicore.SharedRegion;
import io.vgpu.hamicore.SharedRegions;

/**
 * Kind {@code accessor}: a region file written from the vector's {@code writes} (no header, as in
 * HAMi's Go tests), mapped with the vector's layout, one {@code UsageInfo} getter called.
 */
public final class AccessorVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) throws IOException {
        Path root = MonitorVectorSupport.scratch();
        try {
            SharedRegion region = map(vector, root.resolve("region.cache"));
            JsonNode call = vector.get("call");
            String method = call.get("method").asText();
            Object actual = UsageInfoCalls.get(region, method, call.path("idx").asInt(0));
            String mismatch = UsageInfoCalls.mismatch(method, actual, vector.get("expect"));
            return mismatch == null ? List.of() : List.of(mismatch);
        } finally {
            MonitorVectorSupport.deleteTree(root);
        }
    }

    /** Writes the vector's image to {@code file} and maps it without header checks. */
    static SharedRegion map(JsonNode vector, Path file) throws IOException {
        Files.write(file, RegionImages.zeroFilledWith(MonitorVectorSupport.fileSize(vector), vector.get("writes")));
        RegionLoad load = SharedRegions.mapAs(file, MonitorVectorSupport.layout(vector));
        return load.loadedRegion().orElseThrow(() -> new IllegalStateException("cannot map the vector's file: " + load));
    }
}
