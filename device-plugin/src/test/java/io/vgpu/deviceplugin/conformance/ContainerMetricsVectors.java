package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Kind {@code container_metrics}: the exact set of per-container series for one region
 * ({@code expect_metrics}), as emitted and as exported with {@code exported_extra_labels}.
 */
public final class ContainerMetricsVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) throws IOException {
        ContainerMetricsRun.Result result = ContainerMetricsRun.run(vector, false);
        List<String> problems = new ArrayList<>(ContainerMetricsRun.basics(vector, result));
        JsonNode expected = vector.get("expect_metrics");
        if (expected != null && !expected.isNull()) {
            problems.addAll(MonitorVectorSupport.sameIgnoringOrder("emitted", result.gathered(),
                    MonitorVectorSupport.expected(expected, null)));
            problems.addAll(MonitorVectorSupport.sameIgnoringOrder("exported", result.exported(),
                    MonitorVectorSupport.expected(expected, MonitorVectorSupport.exportedLabels(vector))));
        }
        return problems;
    }
}
