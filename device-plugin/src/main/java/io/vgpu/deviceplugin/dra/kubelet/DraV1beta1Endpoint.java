package io.vgpu.deviceplugin.dra.kubelet;

import io.vertx.core.Future;
import io.vgpu.deviceplugin.dra.prepare.ClaimRef;
import io.vgpu.deviceplugin.dra.prepare.ClaimResult;
import io.vgpu.deviceplugin.dra.prepare.KubeletDevice;
import io.vgpu.dra.v1beta1.Claim;
import io.vgpu.dra.v1beta1.DRAPluginGrpcService;
import io.vgpu.dra.v1beta1.Device;
import io.vgpu.dra.v1beta1.NodePrepareResourceResponse;
import io.vgpu.dra.v1beta1.NodePrepareResourcesRequest;
import io.vgpu.dra.v1beta1.NodePrepareResourcesResponse;
import io.vgpu.dra.v1beta1.NodeUnprepareResourceResponse;
import io.vgpu.dra.v1beta1.NodeUnprepareResourcesRequest;
import io.vgpu.dra.v1beta1.NodeUnprepareResourcesResponse;

import java.util.List;

/**
 * {@code k8s.io.kubelet.pkg.apis.dra.v1beta1.DRAPlugin} (kubelets 1.32-1.33): protobuf ↔ {@link DraCalls}.
 * Every claim of the request gets an entry; v1beta1 has no {@code share_id} (its Device message lacks field 5).
 */
final class DraV1beta1Endpoint extends DRAPluginGrpcService {

    /** The string this service is announced with in {@code supported_versions}. */
    static final String VERSION = "v1beta1.DRAPlugin";

    private final DraCalls calls;

    DraV1beta1Endpoint(DraCalls calls) {
        this.calls = calls;
    }

    @Override
    public Future<NodePrepareResourcesResponse> nodePrepareResources(NodePrepareResourcesRequest request) {
        List<ClaimRef> claims = refs(request.getClaimsList());
        return calls.prepare(claims, "v1beta1").map(results -> {
            NodePrepareResourcesResponse.Builder out = NodePrepareResourcesResponse.newBuilder();
            results.forEach((uid, r) -> out.putClaims(uid, answer(r)));
            return out.build();
        });
    }

    @Override
    public Future<NodeUnprepareResourcesResponse> nodeUnprepareResources(NodeUnprepareResourcesRequest request) {
        return calls.unprepare(refs(request.getClaimsList()), "v1beta1").map(results -> {
            NodeUnprepareResourcesResponse.Builder out = NodeUnprepareResourcesResponse.newBuilder();
            results.forEach((uid, error) -> out.putClaims(uid, NodeUnprepareResourceResponse.newBuilder().setError(error).build()));
            return out.build();
        });
    }

    private static NodePrepareResourceResponse answer(ClaimResult r) {
        if (r instanceof ClaimResult.Failed failed) {
            return NodePrepareResourceResponse.newBuilder().setError(failed.error()).build();
        }
        NodePrepareResourceResponse.Builder out = NodePrepareResourceResponse.newBuilder();
        for (KubeletDevice d : ((ClaimResult.Prepared) r).devices()) {
            Device.Builder device = Device.newBuilder().addAllRequestNames(d.requestNames()).setPoolName(d.poolName())
                    .setDeviceName(d.deviceName()).addAllCdiDeviceIds(d.cdiDeviceIds());
            out.addDevices(device);
        }
        return out.build();
    }

    private static List<ClaimRef> refs(List<Claim> claims) {
        return claims.stream().map(c -> new ClaimRef(c.getNamespace(), c.getName(), c.getUid())).toList();
    }
}
