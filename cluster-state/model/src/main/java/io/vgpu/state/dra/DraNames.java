package io.vgpu.state.dra;

/**
 * The names DRA mode puts on the wire (DESIGN.md §8, spec/dra-spec.md), in one place so that the
 * node agent (slices, CDI), the gateway (webhook translation, gauges) and the simulator agree.
 *
 * <p>Device names are {@code gpu-<minor>}, the minor number of the GPU's device node
 * {@code /dev/nvidia<minor>} (NVIDIA's driver does the same): stable across agent restarts and
 * across reboots that do not change the hardware, unlike NVML's enumeration index.
 */
public final class DraNames {

    /** The DRA driver name: {@code spec.driver} of every slice, {@code driver} of every result. */
    public static final String DRIVER = "gpu.vgpu.io";

    /** The node label that puts a node in DRA mode; any other value, or none, is device-plugin mode. */
    public static final String MODE_LABEL = "vgpu.io/mode";

    /** The value of {@link #MODE_LABEL} that selects DRA mode. */
    public static final String MODE_DRA = "dra";

    /** CDI kind of the per-claim specs: vendor {@code k8s.gpu.vgpu.io}, class {@code claim}. */
    public static final String CDI_KIND = "k8s." + DRIVER + "/claim";

    /** API version of the opaque configuration this driver reads from claims and classes. */
    public static final String CONFIG_API_VERSION = DRIVER + "/v1alpha1";

    /** Kind of the opaque configuration this driver reads. */
    public static final String CONFIG_KIND = "VgpuConfig";

    private static final String DEVICE_PREFIX = "gpu-";

    private DraNames() {
    }

    /** The device name of the GPU whose device node is {@code /dev/nvidia<minor>}; {@code minor ≥ 0}. */
    public static String deviceName(int minor) {
        if (minor < 0) {
            throw new IllegalArgumentException("minor number is negative: " + minor);
        }
        return DEVICE_PREFIX + minor;
    }

    /**
     * The minor number a device name of this driver stands for, or -1 when the name is not of the
     * form {@code gpu-<minor>} (a foreign or malformed name: callers refuse it, never guess).
     */
    public static int minorOf(String deviceName) {
        if (deviceName == null || !deviceName.startsWith(DEVICE_PREFIX)) {
            return -1;
        }
        String digits = deviceName.substring(DEVICE_PREFIX.length());
        if (digits.isEmpty() || digits.length() > 9 || (digits.length() > 1 && digits.charAt(0) == '0')) {
            return -1;
        }
        for (int i = 0; i < digits.length(); i++) {
            if (!Character.isDigit(digits.charAt(i)) || digits.charAt(i) > '9') {
                return -1;
            }
        }
        return Integer.parseInt(digits);
    }
}
