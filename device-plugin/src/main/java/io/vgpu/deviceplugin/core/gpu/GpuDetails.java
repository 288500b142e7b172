package io.vgpu.deviceplugin.core.gpu;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * The identity facts of one GPU that DRA attributes and CDI device nodes need, as the device source
 * reports them. Any of them may be unknown (empty): an older driver without the NVML function, a
 * driver that answers NOT_SUPPORTED, or a fake GPU file that does not set it. Device-plugin mode
 * reads none of them.
 *
 * @param minorNumber           N of the device node {@code /dev/nvidiaN}; not always the NVML index
 * @param architecture          NVML's architecture name, e.g. {@code Hopper}; {@code Unknown} when NVML
 *                              itself reports no known architecture
 * @param brand                 NVML's brand name as go-nvlib spells it, e.g. {@code Nvidia}, {@code Tesla}
 * @param cudaComputeCapability {@code <major>.<minor>}, e.g. {@code 9.0}
 * @param driverVersion         the node's driver version as NVML prints it, e.g. {@code 550.54.15}
 *                              (node-wide: the same on every GPU of a scan; not always strict semver)
 * @param cudaDriverVersion     {@code <major>.<minor>} of the newest CUDA the driver supports, e.g.
 *                              {@code 12.4} (node-wide)
 * @param pciBusId              PCI address in the form DRA's {@code resource.kubernetes.io/pciBusID} takes,
 *                              {@code dddd:bb:dd.f} in lower case, e.g. {@code 0000:3b:00.0}
 *                              ({@link NvmlText#pciAddress} turns NVML's form into it); the order of
 *                              these addresses is the order in which NVML numbers the GPUs a container
 *                              sees
 */
public record GpuDetails(OptionalInt minorNumber, Optional<String> architecture, Optional<String> brand,
                         Optional<String> cudaComputeCapability, Optional<String> driverVersion,
                         Optional<String> cudaDriverVersion, Optional<String> pciBusId) {

    /** Nothing known. */
    public static final GpuDetails UNKNOWN = new GpuDetails(OptionalInt.empty(), Optional.empty(), Optional.empty(),
            Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());

    private static final Pattern MAJOR_MINOR = Pattern.compile("\\d{1,9}\\.\\d{1,9}");
    private static final Pattern PCI_ADDRESS = Pattern.compile("[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]");

    /**
     * Null means unknown; a present value must be well formed.
     *
     * @throws IllegalArgumentException for a negative minor number, a blank name or version, a
     *                                  compute capability / CUDA version that is not {@code <major>.<minor>},
     *                                  or a PCI address not in the form {@code dddd:bb:dd.f} (lower case)
     */
    public GpuDetails {
        minorNumber = minorNumber == null ? OptionalInt.empty() : minorNumber;
        architecture = nonBlank(architecture, "architecture");
        brand = nonBlank(brand, "brand");
        cudaComputeCapability = majorMinor(cudaComputeCapability, "cudaComputeCapability");
        driverVersion = nonBlank(driverVersion, "driverVersion");
        cudaDriverVersion = majorMinor(cudaDriverVersion, "cudaDriverVersion");
        pciBusId = nonBlank(pciBusId, "pciBusId");
        if (pciBusId.isPresent() && !PCI_ADDRESS.matcher(pciBusId.get()).matches()) {
            throw new IllegalArgumentException("pciBusId must be dddd:bb:dd.f in lower case, e.g. 0000:3b:00.0, got \""
                    + pciBusId.get() + "\"");
        }
        if (minorNumber.isPresent() && minorNumber.getAsInt() < 0) {
            throw new IllegalArgumentException("minorNumber must not be negative: " + minorNumber.getAsInt());
        }
    }

    /** The facts without a PCI address (unknown). */
    public GpuDetails(OptionalInt minorNumber, Optional<String> architecture, Optional<String> brand,
                      Optional<String> cudaComputeCapability, Optional<String> driverVersion,
                      Optional<String> cudaDriverVersion) {
        this(minorNumber, architecture, brand, cudaComputeCapability, driverVersion, cudaDriverVersion, Optional.empty());
    }

    private static Optional<String> nonBlank(Optional<String> value, String what) {
        if (value == null) {
            return Optional.empty();
        }
        if (value.isPresent() && value.get().isBlank()) {
            throw new IllegalArgumentException(what + " is blank");
        }
        return value;
    }

    private static Optional<String> majorMinor(Optional<String> value, String what) {
        Optional<String> v = nonBlank(value, what);
        if (v.isPresent() && !MAJOR_MINOR.matcher(v.get()).matches()) {
            throw new IllegalArgumentException(what + " must be <major>.<minor>, e.g. 9.0, got \"" + v.get() + "\"");
        }
        return v;
    }
}
