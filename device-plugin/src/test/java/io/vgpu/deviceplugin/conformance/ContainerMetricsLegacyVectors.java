package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Kind {@code container_metrics_legacy}: with {@code --legacy-metrics}, the series in emission
 * order ({@code expect_metrics_in_order}, new and legacy interleaved), and the same set exported.
 */
public final class ContainerMetricsLegacyVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) throws IOException {
        ContainerMetricsRun.Result result = ContainerMetricsRun.run(vector, true);
        List<String> problems = new ArrayList<>(ContainerMetricsRun.basics(vector, result));
        JsonNode expected = vector.get("expect_metrics_in_order");
        problems.addAll(MonitorVectorSupport.sameInOrder("emitted", result.gathered(),
                MonitorVectorSupport.expected(expected, null)));
        problems.addAll(MonitorVectorSupport.sameIgnoringOrder("exported", result.exported(),
                MonitorVectorSupport.expected(expected, MonitorVectorSupport.exportedLabels(vector))));
        return problems;
    }
}
