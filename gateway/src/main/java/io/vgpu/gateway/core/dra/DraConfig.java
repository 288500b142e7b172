package io.vgpu.gateway.core.dra;

import java.util.Objects;

/**
 * What the DRA translation of the webhook needs besides the NVIDIA device config: the DeviceClass its claim
 * requests name, and whether pods with no mode of their own (pod annotation, namespace label) target DRA.
 *
 * @param deviceClassName {@code VGPU_DRA_DEVICE_CLASS} (chart {@code devicePlugin.dra.deviceClass.name})
 * @param draByDefault    {@code VGPU_DRA_DEFAULT}: the cluster default of {@link DraMode}
 */
public record DraConfig(String deviceClassName, boolean draByDefault) {

    /** The DeviceClass the chart installs. */
    public static final String DEFAULT_DEVICE_CLASS = "gpu.vgpu.io";

    /** DRA off by default, on the chart's DeviceClass. */
    public static final DraConfig DEFAULTS = new DraConfig(DEFAULT_DEVICE_CLASS, false);

    /** Requires a non-blank class name. */
    public DraConfig {
        Objects.requireNonNull(deviceClassName, "deviceClassName");
        if (deviceClassName.isBlank()) {
            throw new IllegalArgumentException("the DRA DeviceClass name is blank");
        }
    }
}
