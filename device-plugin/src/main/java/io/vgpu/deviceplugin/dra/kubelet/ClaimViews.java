package io.vgpu.deviceplugin.dra.kubelet;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.vgpu.deviceplugin.dra.prepare.ClaimObject;
import io.vgpu.deviceplugin.dra.prepare.ClaimRef;
import io.vgpu.deviceplugin.dra.prepare.PodClaims;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * fabric8's {@code resource.k8s.io/v1} ResourceClaim and core Pod → the prepare core's views. Pure
 * mapping; a value the core cannot hold (a quantity that is not a whole number of bytes, percent or
 * slots once rounded up, or one beyond 2^63) throws {@link IllegalArgumentException} naming it.
 */
public final class ClaimViews {

    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    private ClaimViews() {
    }

    /** The prepare core's view of a ResourceClaim. */
    public static ClaimObject claim(ResourceClaim claim) {
        var meta = claim.getMetadata();
        ClaimRef ref = new ClaimRef(Objects.toString(meta.getNamespace(), ""), Objects.toString(meta.getName(), ""),
                Objects.toString(meta.getUid(), ""));
        var status = claim.getStatus();
        Optional<ClaimObject.Allocation> allocation = Optional.ofNullable(status == null ? null : status.getAllocation())
                .map(ClaimViews::allocation);
        List<ClaimObject.Consumer> reserved = new ArrayList<>();
        if (status != null && status.getReservedFor() != null) {
            status.getReservedFor().forEach(r -> reserved.add(new ClaimObject.Consumer(r.getResource(), r.getName(), r.getUid())));
        }
        return new ClaimObject(ref, allocation, reserved);
    }

    private static ClaimObject.Allocation allocation(AllocationResult a) {
        List<ClaimObject.Result> results = new ArrayList<>();
        List<ClaimObject.Config> configs = new ArrayList<>();
        if (a.getDevices() != null) {
            for (DeviceRequestAllocationResult r : nonNull(a.getDevices().getResults())) {
                results.add(new ClaimObject.Result(Objects.toString(r.getRequest(), ""), r.getDriver(), r.getPool(),
                        r.getDevice(), Optional.ofNullable(r.getShareID()), consumed(r), Boolean.TRUE.equals(r.getAdminAccess())));
            }
            for (DeviceAllocationConfiguration c : nonNull(a.getDevices().getConfig())) {
                Optional<ClaimObject.Opaque> opaque = Optional.ofNullable(c.getOpaque()).map(o -> new ClaimObject.Opaque(
                        o.getDriver(), o.getParameters() == null ? "" : JSON.asJson(o.getParameters())));
                configs.add(new ClaimObject.Config(c.getSource(), c.getRequests(), opaque));
            }
        }
        return new ClaimObject.Allocation(results, configs);
    }

    private static Map<String, Long> consumed(DeviceRequestAllocationResult r) {
        Map<String, Long> out = new LinkedHashMap<>();
        if (r.getConsumedCapacity() != null) {
            r.getConsumedCapacity().forEach((name, q) -> out.put(name, wholeUnits(name, q)));
        }
        return out;
    }

    /** A quantity as a whole number, rounded up (the allocator's rounding direction). */
    static long wholeUnits(String name, Quantity q) {
        try {
            BigDecimal amount = Quantity.getAmountInBytes(q);
            return amount.setScale(0, RoundingMode.CEILING).longValueExact();
        } catch (ArithmeticException | IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("consumedCapacity." + name + " = " + q + " is not a quantity this driver can "
                    + "hold: " + e.getMessage(), e);
        }
    }

    /** Which claims the pod's entries resolved to, and which claim requests each container uses. */
    public static PodClaims pod(Pod pod) {
        var meta = pod.getMetadata();
        PodSpec spec = pod.getSpec();
        PodStatus status = pod.getStatus();
        Map<String, String> claimNames = new LinkedHashMap<>();
        if (spec != null) {
            nonNull(spec.getResourceClaims()).forEach(c -> {
                if (c.getName() != null && c.getResourceClaimName() != null) {
                    claimNames.put(c.getName(), c.getResourceClaimName());
                }
            });
        }
        Optional<String> extended = Optional.empty();
        Map<String, List<String>> extendedByContainer = new LinkedHashMap<>();
        if (status != null) {
            nonNull(status.getResourceClaimStatuses()).forEach(s -> {
                if (s.getName() != null && s.getResourceClaimName() != null) {
                    claimNames.putIfAbsent(s.getName(), s.getResourceClaimName());
                }
            });
            var ext = status.getExtendedResourceClaimStatus();
            if (ext != null && ext.getResourceClaimName() != null) {
                extended = Optional.of(ext.getResourceClaimName());
                nonNull(ext.getRequestMappings()).forEach(m -> extendedByContainer
                        .computeIfAbsent(Objects.toString(m.getContainerName(), ""), k -> new ArrayList<>())
                        .add(Objects.toString(m.getRequestName(), "")));
            }
        }
        List<PodClaims.Container> containers = new ArrayList<>();
        if (spec != null) {
            for (List<Container> group : List.of(nonNull(spec.getInitContainers()), nonNull(spec.getContainers()))) {
                for (Container c : group) {
                    List<PodClaims.Use> uses = new ArrayList<>();
                    if (c.getResources() != null) {
                        nonNull(c.getResources().getClaims()).forEach(u -> uses.add(new PodClaims.Use(
                                Objects.toString(u.getName(), ""), u.getRequest())));
                    }
                    String name = Objects.toString(c.getName(), "");
                    containers.add(new PodClaims.Container(name, uses, extendedByContainer.getOrDefault(name, List.of())));
                }
            }
        }
        return new PodClaims(Objects.toString(meta.getNamespace(), ""), Objects.toString(meta.getName(), ""),
                Objects.toString(meta.getUid(), ""), claimNames, containers, extended);
    }

    private static <T> List<T> nonNull(List<T> list) {
        return list == null ? List.of() : list;
    }
}
