package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.deviceplugin.core.allocate.AllocatePlanner;
import io.vgpu.deviceplugin.core.allocate.AllocateSettings;
import io.vgpu.deviceplugin.core.allocate.AllocationService;
import io.vgpu.deviceplugin.core.allocate.CdiSettings;
import io.vgpu.deviceplugin.core.allocate.DeviceIdStrategy;
import io.vgpu.deviceplugin.core.advertise.DeviceInventory;
import io.vgpu.deviceplugin.core.allocate.DeviceListStrategy;
import io.vgpu.deviceplugin.core.hook.HookFiles;
import io.vgpu.deviceplugin.core.pending.NodeLockReleaser;
import io.vgpu.deviceplugin.core.cluster.PodView;
import io.vgpu.deviceplugin.testing.FakeCluster;
import io.vgpu.deviceplugin.testing.FakeHostFiles;
import io.vgpu.state.codec.HamiAnnotations;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** The plugin's allocation service wired to fakes, from an {@code allocate}-style vector input. */
final class AllocateFixture {

    static final String NODE = "node-1";

    final FakeCluster cluster = new FakeCluster();
    final FakeHostFiles host;
    final AllocationService service;

    AllocateFixture(JsonNode config, JsonNode pod, String lookupError) {
        host = new FakeHostFiles(new HookFiles(config.path("versioned_lib_exists").asBoolean(), config.path("license_exists").asBoolean()));
        if (lookupError != null) {
            cluster.failNodeReads(lookupError);
        }
        if (pod != null && !pod.isMissingNode()) {
            PodView view = new PodView(pod.path("namespace").asText("default"), pod.path("name").asText(), pod.path("uid").asText(),
                    "Pending", NODE, NodeJson.stringMap(pod.path("annotations")), NodeJson.containers(pod.get("init_containers")),
                    NodeJson.containers(pod.get("containers")));
            cluster.pod(view);
            cluster.node(NODE, Map.of(HamiAnnotations.NODE_LOCK, "2026-08-01T06:00:00Z," + view.namespace() + "," + view.name()));
        } else {
            cluster.node(NODE, Map.of());
        }
        AllocatePlanner planner = new AllocatePlanner(settings(config), UUID::randomUUID);
        DeviceInventory inventory = new DeviceInventory(new HashSet<>(NodeJson.strings(config.get("known_device_ids"))), Map.of());
        service = new AllocationService(NODE, cluster, host, planner, () -> inventory,
                new NodeLockReleaser(cluster, 5, Duration.ZERO));
    }

    static AllocateSettings settings(JsonNode config) {
        List<DeviceListStrategy> strategies = new ArrayList<>();
        for (String s : NodeJson.strings(config.get("device_list_strategy"))) {
            strategies.add(DeviceListStrategy.parse(s).orElseThrow(() -> new IllegalArgumentException("strategy " + s)));
        }
        return new AllocateSettings("nvidia.com/gpu", config.path("hook_path").asText("/usr/local"),
                config.path("device_memory_scaling").asDouble(1), config.path("lib_cuda_log_level").asText(""),
                config.path("disable_core_limit").asBoolean(),
                DeviceIdStrategy.parse(config.path("device_id_strategy").asText("uuid")).orElseThrow(),
                strategies, config.path("enable_get_preferred_allocation").asBoolean(),
                config.path("operating_mode").asText(AllocateSettings.MODE_HAMI_CORE), config.path("plugin_version").asText(""),
                config.path("time_slicing_fail_requests_greater_than_one").asBoolean(), CdiSettings.defaults(), List.of(),
                false, false, false);
    }

    /** Kubelet's container requests: lists of IDs, or objects carrying {@code devices_ids}. */
    static List<List<String>> requests(JsonNode array) {
        List<List<String>> out = new ArrayList<>();
        array.forEach(r -> out.add(NodeJson.strings(r.isArray() ? r : r.path("devices_ids"))));
        return out;
    }
}
