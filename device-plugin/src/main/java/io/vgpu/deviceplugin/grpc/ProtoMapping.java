package io.vgpu.deviceplugin.grpc;

import io.vgpu.deviceplugin.core.advertise.AdvertisedDevice;
import io.vgpu.deviceplugin.core.allocate.ContainerResponse;
import io.vgpu.deviceplugin.core.allocate.MountSpec;
import io.vgpu.deviceplugin.core.advertise.PluginOptions;
import io.vgpu.deviceplugin.core.allocate.PreferredRequest;
import io.vgpu.deviceplugin.v1beta1.AllocateRequest;
import io.vgpu.deviceplugin.v1beta1.AllocateResponse;
import io.vgpu.deviceplugin.v1beta1.CDIDevice;
import io.vgpu.deviceplugin.v1beta1.ContainerAllocateResponse;
import io.vgpu.deviceplugin.v1beta1.ContainerPreferredAllocationRequest;
import io.vgpu.deviceplugin.v1beta1.ContainerPreferredAllocationResponse;
import io.vgpu.deviceplugin.v1beta1.Device;
import io.vgpu.deviceplugin.v1beta1.DevicePluginOptions;
import io.vgpu.deviceplugin.v1beta1.ListAndWatchResponse;
import io.vgpu.deviceplugin.v1beta1.Mount;
import io.vgpu.deviceplugin.v1beta1.NUMANode;
import io.vgpu.deviceplugin.v1beta1.PreferredAllocationRequest;
import io.vgpu.deviceplugin.v1beta1.PreferredAllocationResponse;
import io.vgpu.deviceplugin.v1beta1.TopologyInfo;

import java.util.List;

/**
 * The one place where kubelet's v1beta1 messages and the core's types meet. Pure and thread-safe.
 */
final class ProtoMapping {

    private ProtoMapping() {
    }

    /** Options → {@code DevicePluginOptions}. */
    public static DevicePluginOptions options(PluginOptions options) {
        return DevicePluginOptions.newBuilder()
                .setPreStartRequired(options.preStartRequired())
                .setGetPreferredAllocationAvailable(options.getPreferredAllocationAvailable())
                .build();
    }

    /** Advertised devices → one ListAndWatch message; the topology is left out when NUMA is unknown. */
    public static ListAndWatchResponse devices(List<AdvertisedDevice> devices) {
        ListAndWatchResponse.Builder out = ListAndWatchResponse.newBuilder();
        for (AdvertisedDevice d : devices) {
            Device.Builder device = Device.newBuilder().setID(d.id()).setHealth(d.health());
            d.numa().ifPresent(numa -> device.setTopology(TopologyInfo.newBuilder().addNodes(NUMANode.newBuilder().setID(numa))));
            out.addDevices(device);
        }
        return out.build();
    }

    /** kubelet's container requests → device ID lists. */
    public static List<List<String>> requests(AllocateRequest request) {
        return request.getContainerRequestsList().stream().map(r -> List.copyOf(r.getDevicesIdsList())).toList();
    }

    /** Core answers → {@code AllocateResponse}. */
    public static AllocateResponse allocateResponse(List<ContainerResponse> responses) {
        AllocateResponse.Builder out = AllocateResponse.newBuilder();
        for (ContainerResponse r : responses) {
            ContainerAllocateResponse.Builder c = ContainerAllocateResponse.newBuilder()
                    .putAllEnvs(r.envs())
                    .putAllAnnotations(r.annotations());
            for (MountSpec m : r.mounts()) {
                c.addMounts(Mount.newBuilder().setContainerPath(m.containerPath()).setHostPath(m.hostPath()).setReadOnly(m.readOnly()));
            }
            r.cdiDevices().forEach(name -> c.addCdiDevices(CDIDevice.newBuilder().setName(name)));
            out.addContainerResponses(c);
        }
        return out.build();
    }

    /** kubelet's preferred-allocation requests → core requests. */
    public static List<PreferredRequest> preferredRequests(PreferredAllocationRequest request) {
        return request.getContainerRequestsList().stream().map(ProtoMapping::preferredRequest).toList();
    }

    private static PreferredRequest preferredRequest(ContainerPreferredAllocationRequest r) {
        return new PreferredRequest(r.getAvailableDeviceIDsList(), r.getMustIncludeDeviceIDsList(), r.getAllocationSize());
    }

    /** Selected IDs → {@code PreferredAllocationResponse} (one container response per selection). */
    public static PreferredAllocationResponse preferredResponse(List<List<String>> selections) {
        PreferredAllocationResponse.Builder out = PreferredAllocationResponse.newBuilder();
        selections.forEach(ids -> out.addContainerResponses(ContainerPreferredAllocationResponse.newBuilder().addAllDeviceIDs(ids)));
        return out.build();
    }
}
