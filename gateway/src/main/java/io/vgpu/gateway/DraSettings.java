package io.vgpu.gateway;

import io.vgpu.gateway.config.ConfigKey;
import io.vgpu.gateway.config.EnvReader;
import io.vgpu.gateway.config.Parsers;
import io.vgpu.gateway.core.dra.DraConfig;

import java.util.List;

/**
 * The {@code VGPU_DRA_*} settings of the webhook's DRA path (docs/dra.md): the cluster default of the mode and the
 * DeviceClass claims name. Read beside {@link GatewayConfig}; the chart sets them from
 * {@code scheduler.admissionWebhook.draByDefault} and {@code devicePlugin.dra.deviceClass.name}.
 */
public final class DraSettings {

    /** {@code VGPU_DRA_DEFAULT}: whether pods naming no {@code vgpu.io/mode} (pod or namespace) use DRA. */
    static final ConfigKey<Boolean> DRA_DEFAULT = ConfigKey.optional("VGPU_DRA_DEFAULT", Parsers.bool(),
            "false", "whether GPU pods without a vgpu.io/mode pod annotation or namespace label get DRA claims");
    /** {@code VGPU_DRA_DEVICE_CLASS}: the DeviceClass translated claims request. */
    public static final ConfigKey<String> DEVICE_CLASS = ConfigKey.optional("VGPU_DRA_DEVICE_CLASS", Parsers.text(),
            DraConfig.DEFAULT_DEVICE_CLASS, "the DeviceClass the webhook's DRA claims request");
    /** All of them. */
    public static final List<ConfigKey<?>> KEYS = List.of(DRA_DEFAULT, DEVICE_CLASS);

    private DraSettings() {
    }

    /** Reads the settings. */
    public static DraConfig read(EnvReader reader) {
        Boolean byDefault = reader.get(DRA_DEFAULT);
        String deviceClass = reader.get(DEVICE_CLASS);
        return new DraConfig(deviceClass == null || deviceClass.isBlank() ? DraConfig.DEFAULT_DEVICE_CLASS
                : deviceClass, Boolean.TRUE.equals(byDefault));
    }
}
