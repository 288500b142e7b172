package io.vgpu.simulate.dra;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequirements;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One request of a claim, or one subrequest of a {@code firstAvailable} list, with its device class
 * resolved: what the search needs to place it. {@link #name()} is the request's own name,
 * {@link #parent()} the enclosing request's name for a subrequest (else null).
 */
record RequestSpec(String name, String parent, DeviceClass deviceClass, boolean all, long count, boolean adminAccess,
                   List<String> classSelectors, List<String> selectors, List<DeviceToleration> tolerations,
                   Map<String, Quantity> capacity) {

    /** The name results carry: {@code req} or {@code req/sub}. */
    String fullName() {
        return parent == null ? name : parent + "/" + name;
    }

    /** The name constraints and configs are matched against for the base request. */
    String baseName() {
        return parent == null ? name : parent;
    }

    /** The subrequest's own name, or null for a plain request. */
    String subName() {
        return parent == null ? null : name;
    }

    static RequestSpec exactly(DeviceRequest request, DeviceClass deviceClass) {
        ExactDeviceRequest e = request.getExactly();
        return of(request.getName(), null, deviceClass, e.getAllocationMode(), e.getCount(), e.getAdminAccess(),
                e.getSelectors(), e.getTolerations(), e.getCapacity());
    }

    static RequestSpec sub(DeviceRequest parent, DeviceSubRequest s, DeviceClass deviceClass) {
        return of(s.getName(), parent.getName(), deviceClass, s.getAllocationMode(), s.getCount(), null,
                s.getSelectors(), s.getTolerations(), s.getCapacity());
    }

    private static RequestSpec of(String name, String parent, DeviceClass deviceClass, String mode, Long count,
                                  Boolean admin, List<DeviceSelector> selectors, List<DeviceToleration> tolerations,
                                  CapacityRequirements capacity) {
        boolean all;
        if (mode == null || mode.isEmpty() || "ExactCount".equals(mode)) {
            all = false;
        } else if ("All".equals(mode)) {
            all = true;
        } else {
            throw new AllocationError("request " + name + ": unsupported count mode " + mode);
        }
        List<String> classSelectors = expressions(deviceClass.getSpec() == null ? null : deviceClass.getSpec().getSelectors(),
                "class " + deviceClass.getMetadata().getName());
        return new RequestSpec(name, parent, deviceClass, all, count == null ? 1 : count, Boolean.TRUE.equals(admin),
                classSelectors, expressions(selectors, "request " + name), List.copyOf(Nulls.list(tolerations)),
                capacity == null ? Map.of() : Map.copyOf(Nulls.map(capacity.getRequests())));
    }

    private static List<String> expressions(List<DeviceSelector> selectors, String owner) {
        List<String> expressions = new ArrayList<>();
        for (int i = 0; i < Nulls.list(selectors).size(); i++) {
            DeviceSelector selector = selectors.get(i);
            if (selector.getCel() == null || selector.getCel().getExpression() == null) {
                throw new AllocationError(owner + ", selector #" + i + ": CEL expression empty (unsupported selector type?)");
            }
            expressions.add(selector.getCel().getExpression());
        }
        return List.copyOf(expressions);
    }
}
