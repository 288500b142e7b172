package io.vgpu.hamicore;

import java.util.Optional;

/**
 * The node-wide driver facts NVML reports ({@link Nvml#describeDriver()}). Each is empty when the
 * driver does not know it (an older NVML without the function, or NOT_SUPPORTED).
 *
 * @param version     {@code nvmlSystemGetDriverVersion} as NVML prints it, e.g. {@code 550.54.15}
 *                    (not always semver: {@code 535.104.05} has a leading zero)
 * @param cudaVersion {@code nvmlSystemGetCudaDriverVersion_v2}: the newest CUDA version the driver
 *                    supports, e.g. 12.4
 */
public record DriverInfo(Optional<String> version, Optional<MajorMinor> cudaVersion) {

    /** Nothing known. */
    public static final DriverInfo UNKNOWN = new DriverInfo(Optional.empty(), Optional.empty());

    /** Null means unknown. */
    public DriverInfo {
        version = version == null ? Optional.empty() : version;
        cudaVersion = cudaVersion == null ? Optional.empty() : cudaVersion;
    }
}
