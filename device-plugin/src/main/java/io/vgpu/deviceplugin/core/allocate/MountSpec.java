package io.vgpu.deviceplugin.core.allocate;

/**
 * One bind mount kubelet adds to the container ({@code Mount} of the device-plugin API).
 *
 * @param containerPath path inside the container
 * @param hostPath      path on the host
 * @param readOnly      mounted read-only
 */
public record MountSpec(String containerPath, String hostPath, boolean readOnly) {
}
