package io.vgpu.gateway.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vgpu.gateway.core.accounting.PodObservation;
import io.vgpu.gateway.core.accounting.PodTracker;
import io.vgpu.gateway.core.accounting.TrackedPod;
import io.vgpu.gateway.core.quota.QuotaBook;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.DeviceGrant;
import io.vgpu.state.model.DeviceUsage;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.UsageAccounting;
import io.vgpu.state.model.Vendor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@code usage_accounting.json}: collapse, node usage, init shrink and the pod cache life cycle. */
public final class UsageAccountingVectors implements VectorFamily {

    private static final String MEM = "hami.io/gpumem";
    private static final String CORES = "hami.io/gpucores";

    @Override
    public List<String> check(JsonNode defaults, JsonNode c) {
        JsonNode in = c.path("input");
        JsonNode expect = c.path("expect");
        Mismatches m = new Mismatches();
        switch (c.path("op").asText()) {
            case "collapse" -> m.expectJson("pod_devices", expect.path("pod_devices"), collapse(in));
            case "node_usage" -> m.expectJson("devices", expect.path("devices"), nodeUsage(in));
            case "init_shrink" -> initShrink(in, expect, m);
            case "pod_lifecycle" -> lifecycle(in, expect, m);
            default -> m.fail("unknown op " + c.path("op").asText());
        }
        return m.list();
    }

    private static JsonNode collapse(JsonNode in) {
        ObjectNode out = VectorJson.MAPPER.createObjectNode();
        VectorJson.podDevices(in.path("pod_devices")).forEach((vendor, containers) -> {
            ArrayNode wrapped = out.putArray(vendor);
            wrapped.add(VectorJson.grantsJson(UsageAccounting.collapse(containers, in.path("init_containers").asInt())));
        });
        return out;
    }

    private static JsonNode nodeUsage(JsonNode in) {
        List<GpuDevice> devices = new ArrayList<>();
        for (JsonNode d : in.path("registered_devices")) {
            devices.add(new GpuDevice(VectorJson.text(d, "id"), d.path("index").asInt(), d.path("count").asInt(),
                    d.path("devmem").asInt(), d.path("devcore").asInt(), VectorJson.text(d, "type"),
                    d.path("numa").asInt(), VectorJson.text(d, "mode"), List.of(), d.path("health").asBoolean()));
        }
        List<List<DeviceGrant>> grants = new ArrayList<>();
        for (JsonNode p : in.path("pods")) {
            List<List<ContainerDevice>> nvidia = VectorJson.podDevices(p.path("pod_devices"))
                    .getOrDefault(Vendor.NVIDIA, List.of());
            grants.add(UsageAccounting.collapse(nvidia, p.path("init_containers").asInt()));
        }
        ObjectNode out = VectorJson.MAPPER.createObjectNode();
        for (DeviceUsage u : UsageAccounting.nodeUsage(devices, grants)) {
            ObjectNode d = out.putObject(u.id());
            d.put("used", u.used());
            d.put("usedmem", u.usedmem());
            d.put("usedcores", u.usedcores());
            d.put("health", u.health());
        }
        return out;
    }

    private static void initShrink(JsonNode in, JsonNode expect, Mismatches m) {
        QuotaBook quotas = new QuotaBook(MEM, CORES, 1);
        PodTracker tracker = new PodTracker(quotas);
        int init = in.path("init_containers").asInt();
        Map<String, String> ann = Map.of("hami.io/vgpu-node", "node1", "hami.io/vgpu-devices-allocated",
                in.path("annotation_allocated").asText());
        tracker.onAdd(new PodObservation("uid", "default", "pod", "Running", false, ann, init, false));
        TrackedPod before = tracker.get("uid");
        m.expectJson("usage_before", expect.path("usage_before"),
                before == null ? null : VectorJson.grantsJson(before.grants()));
        tracker.onUpdate(new PodObservation("uid", "default", "pod", "Running", false, ann, init, true));
        // a later informer re-add must keep the shrunk charge
        tracker.onAdd(new PodObservation("uid", "default", "pod", "Running", false, ann, init, true));
        TrackedPod after = tracker.get("uid");
        m.expectJson("usage_after", expect.path("usage_after"),
                after == null ? null : VectorJson.grantsJson(after.grants()));
        JsonNode quota = expect.path("quota_used_after");
        if (quota.isObject()) {
            m.expect("quota mem", quota.path(MEM).asLong(), quotas.entry("default", MEM).used());
            m.expect("quota cores", quota.path(CORES).asLong(), quotas.entry("default", CORES).used());
        }
    }

    private static void lifecycle(JsonNode in, JsonNode expect, Mismatches m) {
        PodTracker tracker = new PodTracker(new QuotaBook(MEM, CORES, 1));
        List<Boolean> cached = new ArrayList<>();
        String allocated = null;
        for (JsonNode step : in.path("steps")) {
            if (step.has("annotation_allocated")) {
                allocated = step.path("annotation_allocated").asText();
            }
            Map<String, String> ann = allocated == null ? Map.of("hami.io/vgpu-node", "node1")
                    : Map.of("hami.io/vgpu-node", "node1", "hami.io/vgpu-devices-allocated", allocated);
            PodObservation pod = new PodObservation("uid", "default", "pod", VectorJson.text(step, "phase"),
                    step.path("deletionTimestamp").asBoolean(false), ann, step.path("init_containers").asInt(0),
                    step.path("init_containers_done").asBoolean(false));
            switch (step.path("event").asText("add")) {
                case "update" -> tracker.onUpdate(pod);
                case "delete" -> tracker.onDelete("uid");
                default -> tracker.onAdd(pod);
            }
            cached.add(tracker.get("uid") != null);
        }
        List<Boolean> want = new ArrayList<>();
        expect.path("cached_after_each_step").forEach(b -> want.add(b.asBoolean()));
        m.expect("cached_after_each_step", want, cached);
    }
}
