package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.vgpu.deviceplugin.core.monitor.MigMetrics;
import io.vgpu.deviceplugin.core.monitor.MonitoredPod;

/** Kind {@code mig_container_name}: container index to name, init containers first. */
public final class MigContainerNameVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        JsonNode spec = vector.get("pod");
        MonitoredPod pod = new MonitoredPod("uid", "ns", "pod", "node", Map.of(), Map.of(),
                names(spec.path("initContainers")), names(spec.path("containers")));
        Optional<String> actual = MigMetrics.containerName(pod, vector.get("container_index").intValue());
        JsonNode expect = vector.get("expect");
        Optional<String> expected = expect.path("found").asBoolean()
                ? Optional.of(expect.get("name").asText()) : Optional.empty();
        return actual.equals(expected) ? List.of() : List.of("container " + actual + ", expected " + expected);
    }

    private static List<String> names(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.forEach(n -> out.add(n.asText()));
        return out;
    }
}
