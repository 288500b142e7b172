package io.vgpu.gateway.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.quota.QuotaBook;
import io.vgpu.gateway.core.quota.QuotaDemand;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.core.request.RequestDeriver;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.Vendor;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code quota.json}: {@code admission_quota} (the webhook's gate, spec §8.4) and {@code fit_quota}
 * (Fit's per-candidate check through {@link io.vgpu.gateway.core.quota.QuotaGate}).
 */
public final class QuotaVectors implements VectorFamily {

    @Override
    public List<String> check(JsonNode defaults, JsonNode testCase) {
        JsonNode input = testCase.path("input");
        // HAMi has one memoryFactor (the nvidia config's): it scales requests and quota limits alike
        JsonNode factorJson = input.has("memory_factor") ? input.get("memory_factor")
                : input.path("nvidia_config").has("memoryFactor") ? input.path("nvidia_config").get("memoryFactor")
                : defaults.get("memory_factor");
        ObjectNode nvidiaJson = VectorJson.merged(defaults.get("nvidia_config"), input.get("nvidia_config"));
        if (factorJson != null && !factorJson.isNull()) {
            nvidiaJson.put("memoryFactor", factorJson.asInt());
        }
        NvidiaConfig nvidia = AdmissionJson.nvidiaConfig(nvidiaJson);
        int memoryFactor = nvidia.memoryFactor();
        QuotaBook book = AdmissionJson.quotaBook(input.get("quota"), nvidia, memoryFactor);
        boolean fit = switch (testCase.path("op").asText()) {
            case "admission_quota" -> admissionQuota(input, nvidia, book);
            case "fit_quota" -> fitQuota(input, book);
            default -> throw new IllegalArgumentException("unknown op " + testCase.path("op"));
        };
        return new Mismatches().expect("fit", testCase.path("expect").path("fit").asBoolean(), fit).list();
    }

    private static boolean admissionQuota(JsonNode input, NvidiaConfig nvidia, QuotaBook book) {
        PodSpec pod = VectorJson.pod(input.path("pod"));
        return QuotaDemand.of(new RequestDeriver(nvidia).podRequests(pod), Vendor.NVIDIA)
                .admittedBy(book, pod.namespace());
    }

    private static boolean fitQuota(JsonNode input, QuotaBook book) {
        List<List<ContainerDevice>> allocated = new ArrayList<>();
        input.path("allocated").forEach(c -> allocated.add(nvidia(VectorJson.containerDevices(c))));
        List<ContainerDevice> current = nvidia(VectorJson.containerDevices(input.path("current")));
        ContainerDevice candidate = nvidia(List.of(VectorJson.containerDevice(input.path("candidate")))).get(0);
        JsonNode pod = input.path("pod");
        return book.admitsCandidate(VectorJson.text(pod, "namespace"), allocated, current, candidate,
                pod.path("init_containers").asInt());
    }

    /** Entries without a type are NVIDIA's (the candidate is built by NVIDIA's Fit). */
    private static List<ContainerDevice> nvidia(List<ContainerDevice> devices) {
        return devices.stream().map(d -> d.type().isEmpty()
                ? new ContainerDevice(d.idx(), d.uuid(), Vendor.NVIDIA, d.usedmem(), d.usedcores()) : d).toList();
    }
}
