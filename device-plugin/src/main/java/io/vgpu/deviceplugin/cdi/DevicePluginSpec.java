package io.vgpu.deviceplugin.cdi;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The CDI spec that device-plugin mode's {@code cdi-annotations} and {@code cdi-cri} strategies name
 * (spec/hami-deviceplugin-spec.md §5.1): kind {@code <vendor>/gpu} (the NVIDIA plugin's vendor
 * {@code k8s.device-plugin.nvidia.com}), one device per served GPU named exactly as the
 * {@code Allocate} answer names it ({@code <vendor>/gpu=<uuid>} or {@code =<index>}, the device-ID
 * strategy), whose edits create the GPU's device node {@code /dev/nvidia<minor>}. The file is the
 * one the NVIDIA plugin writes ({@link #fileName}), in the dynamic CDI directory.
 *
 * <p>Unlike {@code nvidia-ctk}'s spec it carries no driver libraries, control nodes or hooks: those
 * reach the container the way {@link DriverLibraries} decides for the whole node agent, as in DRA
 * mode (NVIDIA's static spec named next to ours, or the NVIDIA runtime reading
 * {@code NVIDIA_VISIBLE_DEVICES}). Pure.
 */
public final class DevicePluginSpec {

    /** The device class of GPUs. */
    public static final String GPU_CLASS = "gpu";

    private DevicePluginSpec() {
    }

    /**
     * One served GPU.
     *
     * @param name  the device name the {@code Allocate} answer uses (UUID or NVML index)
     * @param minor N of {@code /dev/nvidiaN}
     */
    public record Gpu(String name, int minor) {

        /** @throws IllegalArgumentException for a bad CDI device name or a negative minor number */
        public Gpu {
            CdiNames.requireDeviceName(name);
            if (minor < 0) {
                throw new IllegalArgumentException("minor number must not be negative: " + minor);
            }
        }
    }

    /** {@code <vendor>/gpu}. */
    public static String kind(String vendor) {
        String kind = Objects.requireNonNull(vendor, "vendor") + "/" + GPU_CLASS;
        CdiNames.requireKind(kind);
        return kind;
    }

    /** {@code <vendor>-gpu.json}, e.g. {@code k8s.device-plugin.nvidia.com-gpu.json}. */
    public static String fileName(String vendor) {
        return CdiNames.staticFileName(kind(vendor));
    }

    /**
     * The spec for {@code gpus}.
     *
     * @throws IllegalArgumentException when there is no GPU or two share a name
     */
    public static CdiSpec of(String vendor, List<Gpu> gpus) {
        List<CdiDevice> devices = new ArrayList<>();
        for (Gpu g : gpus) {
            devices.add(new CdiDevice(g.name(), ContainerEdits.builder().deviceNode(DeviceNode.of("/dev/nvidia" + g.minor())).build()));
        }
        return new CdiSpec(kind(vendor), devices, ContainerEdits.NONE);
    }
}
