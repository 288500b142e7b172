package io.vgpu.deviceplugin.core.register;

import io.vgpu.deviceplugin.core.advertise.DeviceFilter;

/**
 * The effective per-node configuration after {@link NodeOverrides#apply}.
 *
 * @param nvidia                       device config values with the node's overrides merged in
 * @param operatingMode                {@code hami-core} unless the node entry says otherwise
 * @param enableGetPreferredAllocation the node entry's flag (false without an entry)
 * @param filter                       GPUs left out
 */
public record NodeSettings(NvidiaSettings nvidia, String operatingMode, boolean enableGetPreferredAllocation,
                           DeviceFilter filter) {
}
