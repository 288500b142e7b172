package io.vgpu.gateway.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.gateway.core.fit.FitContext;
import io.vgpu.gateway.core.fit.FitResult;
import io.vgpu.gateway.core.fit.NvidiaFit;
import io.vgpu.gateway.core.score.DeviceOrder;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.ContainerRequest;
import io.vgpu.state.model.DeviceUsage;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Kind {@code nvidia_fit}: one container request against the exact device list handed to Fit (first sorted
 * with the device comparator when the case has {@code presort}).
 */
public final class NvidiaFitVectors implements VectorFamily {

    @Override
    public List<String> check(JsonNode defaults, JsonNode testCase) {
        JsonNode in = testCase.path("input");
        JsonNode expect = testCase.path("expect");
        JsonNode deviceDefaults = defaults.get("device_fields");
        List<DeviceUsage> devices = VectorJson.deviceUsages(in.get("devices"), deviceDefaults);
        if (in.hasNonNull("presort")) {
            devices = presorted(devices, in.get("presort"));
        }
        ContainerRequest request = VectorJson.request(in.path("request"));
        Map<String, String> podAnnotations = VectorJson.stringMap(in.get("pod_annotations"));
        String policy = FitContext.resolveGpuPolicy(podAnnotations,
                VectorJson.text(defaults, "default_gpu_scheduler_policy"));
        JsonNode pod = in.path("pod");
        JsonNode quota = VectorJson.field(in, defaults, "quota");
        String namespace = in.hasNonNull("namespace") ? VectorJson.text(in, "namespace")
                : pod.hasNonNull("namespace") ? VectorJson.text(pod, "namespace")
                : FitVectorSupport.onlyNamespace(quota) != null ? FitVectorSupport.onlyNamespace(quota) : "default";
        FitContext ctx = FitContext.forPod(podAnnotations, namespace, policy,
                        FitVectorSupport.quota(quota, in.path("memory_factor").asInt(
                                defaults.path("memory_factor").asInt(1)), namespace))
                .onNode(VectorJson.stringMap(VectorJson.field(in, defaults, "node_annotations")),
                        FitVectorSupport.pairScores(VectorJson.field(in, defaults, "pair_scores")));
        List<List<ContainerDevice>> allocated = FitVectorSupport.containers(in.get("allocated"));

        FitResult result = NvidiaFit.fit(devices, request, ctx, allocated, pod.path("init_containers").asInt(0));

        Mismatches m = new Mismatches();
        m.expect("fit", expect.path("fit").asBoolean(), result.fit());
        if (expect.has("devices")) {
            FitVectorSupport.expectDevices("devices", expect.get("devices"), result.picks(),
                    testCase.path("devices_any_order").asBoolean(false) || in.path("devices_any_order").asBoolean(false)
                            || expect.path("devices_any_order").asBoolean(false), m);
        }
        if (expect.has("reason")) {
            m.expect("reason", expect.path("reason").asText(), result.fit() ? "" : result.rejection().hamiText());
        }
        return m.list();
    }

    private static List<DeviceUsage> presorted(List<DeviceUsage> devices, JsonNode presort) {
        DeviceUsage[] array = devices.toArray(new DeviceUsage[0]);
        float[] scores = new float[array.length];
        JsonNode given = presort.path("scores");
        for (int i = 0; i < array.length; i++) {
            scores[i] = (float) given.path(i).asDouble();
        }
        new DeviceOrder(VectorJson.text(presort, "policy"), presort.path("numa_bind").asBoolean(false))
                .sort(array, scores, array.length);
        return Arrays.asList(array);
    }
}
