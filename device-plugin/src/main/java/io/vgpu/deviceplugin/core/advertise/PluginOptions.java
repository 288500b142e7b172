package io.vgpu.deviceplugin.core.advertise;

/**
 * The device-plugin options (the API's {@code DevicePluginOptions}). HAMi answers the
 * {@code GetDevicePluginOptions} RPC with preferred allocation available ALWAYS, and puts the
 * node-config flag only in the registration request; kubelet uses the RPC's answer (spec §1.3).
 *
 * @param preStartRequired                kubelet must call PreStartContainer (never)
 * @param getPreferredAllocationAvailable kubelet may call GetPreferredAllocation
 */
public record PluginOptions(boolean preStartRequired, boolean getPreferredAllocationAvailable) {

    /** The {@code GetDevicePluginOptions} answer. */
    public static PluginOptions rpcAnswer() {
        return new PluginOptions(false, true);
    }

    /** The options sent in {@code RegisterRequest}: the node-config {@code enablegetpreferredallocation} flag. */
    public static PluginOptions forRegistration(boolean enableGetPreferredAllocation) {
        return new PluginOptions(false, enableGetPreferredAllocation);
    }
}
