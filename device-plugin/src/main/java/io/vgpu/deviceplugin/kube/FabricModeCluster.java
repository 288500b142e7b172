package io.vgpu.deviceplugin.kube;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.vgpu.deviceplugin.core.mode.ModeSnapshot;
import io.vgpu.deviceplugin.core.port.ModeCluster;
import io.vgpu.deviceplugin.core.port.NodeInfo;
import io.vgpu.deviceplugin.core.port.PreparedClaims;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.dra.DraNames;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * {@link ModeCluster} over fabric8: GET the node; LIST the pods bound to it ({@code spec.nodeName}) and those
 * the HAMi scheduler placed on it (label {@code hami.io/vgpu-node}), and every ResourceClaim (this driver's
 * results in this node's pool are picked here; claims have no field selector for that); merge patches of
 * the node. Needs get/patch/list on nodes, list on pods, list on resourceclaims.
 */
public final class FabricModeCluster implements ModeCluster {

    private static final PatchContext MERGE = PatchContext.of(PatchType.JSON_MERGE);

    private final KubernetesClient client;
    private final String node;
    private final String vgpuResource;
    private final KubeCalls calls;

    /**
     * @param vgpuResource the node's vGPU count resource ({@code resourceCountName}, e.g. {@code nvidia.com/gpu})
     */
    public FabricModeCluster(KubernetesClient client, String node, String vgpuResource, Executor executor, Duration timeout) {
        this.client = Objects.requireNonNull(client, "client");
        this.node = Objects.requireNonNull(node, "node");
        this.vgpuResource = Objects.requireNonNull(vgpuResource, "vgpuResource");
        this.calls = new KubeCalls(executor, timeout);
    }

    @Override
    public CompletionStage<Optional<NodeInfo>> node() {
        return calls.call(() -> Optional.ofNullable(client.nodes().withName(node).get()).map(KubeNodeWatch::view));
    }

    @Override
    public CompletionStage<ModeSnapshot> snapshot(PreparedClaims prepared) {
        CompletionStage<Map<String, String>> annotations = calls.call(() -> Optional.ofNullable(client.nodes().withName(node).get())
                .map(n -> PodViews.nonNullValues(n.getMetadata().getAnnotations())).orElse(Map.of()));
        CompletionStage<List<ModeSnapshot.Pod>> pods = calls.call(this::pods);
        CompletionStage<List<ModeSnapshot.Claim>> claims = calls.call(this::claims);
        return annotations.thenCompose(a -> pods.thenCompose(p -> claims.thenCompose(c -> prepared.preparedClaimUids()
                .thenApply(uids -> new ModeSnapshot(node, a, p, c, uids)))));
    }

    @Override
    public CompletionStage<Void> removeDevicePluginAnnotations() {
        return calls.call(() -> {
            client.nodes().withName(node).patch(MERGE, "{\"metadata\":{\"annotations\":{\"" + HamiAnnotations.NODE_NVIDIA_REGISTER
                    + "\":null,\"" + HamiAnnotations.NODE_HANDSHAKE + "\":null}}}");
            return null;
        });
    }

    @Override
    public CompletionStage<Void> labelMode(String value) {
        return calls.call(() -> {
            client.nodes().withName(node).patch(MERGE, "{\"metadata\":{\"labels\":{\"" + DraNames.MODE_LABEL + "\":\""
                    + value + "\"}}}");
            return null;
        });
    }

    private List<ModeSnapshot.Pod> pods() {
        Map<String, ModeSnapshot.Pod> byUid = new LinkedHashMap<>();
        List<Pod> listed = new ArrayList<>(client.pods().inAnyNamespace().withField("spec.nodeName", node).list().getItems());
        listed.addAll(client.pods().inAnyNamespace().withLabel(HamiAnnotations.VGPU_NODE, node).list().getItems());
        for (Pod p : listed) {
            var meta = p.getMetadata();
            Map<String, String> hami = new LinkedHashMap<>();
            PodViews.nonNullValues(meta.getAnnotations()).forEach((k, v) -> {
                if (k.startsWith("hami.io/")) {
                    hami.put(k, v);
                }
            });
            byUid.putIfAbsent(Objects.toString(meta.getUid(), meta.getNamespace() + "/" + meta.getName()),
                    new ModeSnapshot.Pod(meta.getNamespace() + "/" + meta.getName(),
                            p.getStatus() == null ? "" : p.getStatus().getPhase(),
                            p.getSpec() == null ? "" : p.getSpec().getNodeName(), hami, requestsVgpu(p)));
        }
        return List.copyOf(byUid.values());
    }

    private boolean requestsVgpu(Pod p) {
        if (p.getSpec() == null) {
            return false;
        }
        List<Container> all = new ArrayList<>();
        if (p.getSpec().getInitContainers() != null) {
            all.addAll(p.getSpec().getInitContainers());
        }
        if (p.getSpec().getContainers() != null) {
            all.addAll(p.getSpec().getContainers());
        }
        for (Container c : all) {
            ResourceRequirements r = c.getResources();
            if (r != null && ((r.getLimits() != null && r.getLimits().containsKey(vgpuResource))
                    || (r.getRequests() != null && r.getRequests().containsKey(vgpuResource)))) {
                return true;
            }
        }
        return false;
    }

    private List<ModeSnapshot.Claim> claims() {
        List<ModeSnapshot.Claim> out = new ArrayList<>();
        for (ResourceClaim c : client.resources(ResourceClaim.class).inAnyNamespace().list().getItems()) {
            if (c.getStatus() == null || c.getStatus().getAllocation() == null
                    || c.getStatus().getAllocation().getDevices() == null
                    || c.getStatus().getAllocation().getDevices().getResults() == null) {
                continue;
            }
            for (DeviceRequestAllocationResult r : c.getStatus().getAllocation().getDevices().getResults()) {
                if (DraNames.DRIVER.equals(r.getDriver()) && node.equals(r.getPool())) {
                    out.add(new ModeSnapshot.Claim(c.getMetadata().getNamespace() + "/" + c.getMetadata().getName(),
                            c.getMetadata().getUid()));
                    break;
                }
            }
        }
        return out;
    }
}
