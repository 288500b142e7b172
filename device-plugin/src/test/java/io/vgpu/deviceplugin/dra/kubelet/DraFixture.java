package io.vgpu.deviceplugin.dra.kubelet;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.vertx.core.Vertx;
import io.vgpu.deviceplugin.config.DevicePluginConfig;
import io.vgpu.deviceplugin.core.advertise.DeviceFilter;
import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.deviceplugin.core.register.NodeSettings;
import io.vgpu.deviceplugin.core.register.NvidiaSettings;
import io.vgpu.deviceplugin.devices.FakeGpuSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * One node's DRA kubelet plugin as {@code Main} builds it ({@link DraKubeletPlugin#create} over a
 * configuration read from the environment by {@link DevicePluginConfig#fromEnv}), every directory
 * under a temporary one, two fake A100s, the fabric8 CRUD mock as the API server.
 */
final class DraFixture implements AutoCloseable {

    static final String NODE = "node-1";
    static final String GPU0 = "GPU-aaaaaaaa-1111-2222-3333-000000000000";
    static final String GPU1 = "GPU-bbbbbbbb-1111-2222-3333-000000000001";
    private static final KubernetesSerialization KUBE = new KubernetesSerialization();

    final Path dir;
    final KubernetesClient client;
    final Vertx vertx = Vertx.vertx();
    final DevicePluginConfig config;
    final NodeSettings node;
    final List<GpuFacts> gpus;

    DraFixture(Path dir, KubernetesClient client, int splitCount) throws Exception {
        this.dir = dir;
        this.client = client;
        Files.writeString(dir.resolve("gpus.yaml"), """
                driverVersion: "550.54.15"
                gpus:
                  - {uuid: %s, name: NVIDIA A100-SXM4-40GB, memoryMiB: 40960, minor: 0, pciBusId: "0000:07:00.0"}
                  - {uuid: %s, name: NVIDIA A100-SXM4-40GB, memoryMiB: 40960, minor: 1, pciBusId: "0000:0f:00.0"}
                """.formatted(GPU0, GPU1));
        Map<String, String> env = new HashMap<>();
        env.put("VGPU_NODE_NAME", NODE);
        env.put("VGPU_HOST_ROOT", dir.resolve("host").toString());
        env.put("VGPU_DEVICE_SOURCE", "fake");
        env.put("VGPU_FAKE_GPUS_FILE", dir.resolve("gpus.yaml").toString());
        env.put("VGPU_DRA_REGISTRY_DIR", dir.resolve("plugins_registry").toString());
        env.put("VGPU_DRA_PLUGIN_DIR", dir.resolve("plugins/gpu.vgpu.io").toString());
        env.put("VGPU_DRA_CDI_DIR", dir.resolve("run/cdi").toString());
        env.put("VGPU_DRA_STATIC_CDI_DIRS", dir.resolve("etc/cdi") + "," + dir.resolve("run/cdi"));
        env.put("VGPU_KUBE_TIMEOUT", "10s");
        this.config = DevicePluginConfig.fromEnv(env);
        this.node = new NodeSettings(new NvidiaSettings("nvidia.com/gpu", splitCount, 1, 1, 0, "", false, false),
                "hami-core", false, DeviceFilter.none());
        this.gpus = new FakeGpuSource(dir.resolve("gpus.yaml")).scan();
    }

    /** A new plugin, as {@code Main} would create it. */
    DraKubeletPlugin plugin() {
        return DraKubeletPlugin.create(vertx, config, client, node, gpus);
    }

    Path registrationSocket() {
        return config.draPlugin().registrationSocket();
    }

    Path draSocket() {
        return config.draPlugin().draSocket();
    }

    Path spec(String uid) {
        return config.draPlugin().cdiDir().resolve("k8s.gpu.vgpu.io-claim_" + uid + ".json");
    }

    Path claimDir(String uid) {
        return dir.resolve("host/usr/local/vgpu/claims/" + uid);
    }

    /**
     * Creates an allocated claim in the API server with one shared result per entry of {@code devices}
     * (request {@code gpu}) and returns it as stored (the mock assigns the UID).
     */
    ResourceClaim claim(String namespace, String name, long memoryMiB, int cores, int slots, String... devices) {
        StringBuilder results = new StringBuilder();
        for (int i = 0; i < devices.length; i++) {
            results.append(i == 0 ? "" : ",").append("""
                    {"request":"gpu","driver":"gpu.vgpu.io","pool":"%s","device":"%s","shareID":"%s",
                     "consumedCapacity":{"memory":"%dMi","cores":"%d","slots":"%d"}}"""
                    .formatted(NODE, devices[i], UUID.randomUUID(), memoryMiB, cores, slots));
        }
        ResourceClaim claim = KUBE.unmarshal("""
                {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"namespace":"%s","name":"%s"},
                 "spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu.vgpu.io","count":%d,
                   "capacity":{"requests":{"memory":"%dMi","cores":"%d"}}}}]}},
                 "status":{"allocation":{"devices":{"results":[%s]}}}}"""
                .formatted(namespace, name, devices.length, memoryMiB, cores, results), ResourceClaim.class);
        ResourceClaim created = client.resource(claim).create();
        if (created.getStatus() == null || created.getStatus().getAllocation() == null) {
            created.setStatus(claim.getStatus());
            created = client.resource(created).updateStatus();
        }
        return created;
    }

    @Override
    public void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
