package io.vgpu.simulate.dra;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import java.util.List;

/**
 * Device taints and request tolerations (spec §3.3.4 step 5): every {@code NoSchedule} or {@code NoExecute}
 * taint must be tolerated; {@code None} and unknown effects are ignored. A toleration matches a taint when
 * its effect is empty or equal, its key is empty or equal, and its operator is {@code Exists} or
 * {@code Equal} (the default) with an equal value.
 */
final class Taints {

    private Taints() {
    }

    static boolean prevent(Device device, List<DeviceToleration> tolerations) {
        for (DeviceTaint taint : Nulls.list(device.getTaints())) {
            boolean binding = "NoSchedule".equals(taint.getEffect()) || "NoExecute".equals(taint.getEffect());
            if (binding && tolerations.stream().noneMatch(t -> tolerates(t, taint))) {
                return true;
            }
        }
        return false;
    }

    static boolean tolerates(DeviceToleration toleration, DeviceTaint taint) {
        if (!isEmpty(toleration.getEffect()) && !toleration.getEffect().equals(taint.getEffect())) {
            return false;
        }
        if (!isEmpty(toleration.getKey()) && !toleration.getKey().equals(taint.getKey())) {
            return false;
        }
        String operator = isEmpty(toleration.getOperator()) ? "Equal" : toleration.getOperator();
        switch (operator) {
            case "Exists":
                return true;
            case "Equal":
                return nullToEmpty(toleration.getValue()).equals(nullToEmpty(taint.getValue()));
            default:
                return false;
        }
    }

    private static boolean isEmpty(String s) {
        return s == null || s.isEmpty();
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
