package io.vgpu.state.dra;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Everything the slice of one node is built from ({@link SliceBuilder#build}).
 *
 * @param nodeName          the node: {@code spec.nodeName} and the pool name
 * @param gpus              the node's GPUs, in any order
 * @param driverVersion     the node's NVIDIA driver version as NVML prints it, when known
 * @param cudaDriverVersion the newest CUDA the driver supports, {@code <major>.<minor>}, when known
 * @param settings          the node settings
 * @param cordoned          UUIDs of {@code hami.io/device-cordon}
 * @param taints            whether the API server keeps device taints ({@link TaintSupport#WITHDRAW} where it drops them)
 */
public record SliceInput(String nodeName, List<SliceGpu> gpus, Optional<String> driverVersion,
                         Optional<String> cudaDriverVersion, SliceSettings settings, Set<String> cordoned,
                         TaintSupport taints) {

    /** Copies the collections; nulls mean unknown / none / taints kept. */
    public SliceInput {
        Objects.requireNonNull(nodeName, "nodeName");
        gpus = gpus == null ? List.of() : List.copyOf(gpus);
        driverVersion = driverVersion == null ? Optional.empty() : driverVersion;
        cudaDriverVersion = cudaDriverVersion == null ? Optional.empty() : cudaDriverVersion;
        Objects.requireNonNull(settings, "settings");
        cordoned = cordoned == null ? Set.of() : Set.copyOf(cordoned);
        taints = taints == null ? TaintSupport.TAINT : taints;
    }

    /** A synthetic node: these GPUs and settings, no driver facts, nothing cordoned. */
    public static SliceInput of(String nodeName, List<SliceGpu> gpus, SliceSettings settings) {
        return new SliceInput(nodeName, gpus, Optional.empty(), Optional.empty(), settings, Set.of(), TaintSupport.TAINT);
    }

    /** The same input with another taint support. */
    public SliceInput withTaints(TaintSupport support) {
        return new SliceInput(nodeName, gpus, driverVersion, cudaDriverVersion, settings, cordoned, support);
    }

    /** How an unhealthy or cordoned GPU is kept from new shares. */
    public enum TaintSupport {
        /** Published with a taint (gate {@code DRADeviceTaints}, on by default from 1.36). */
        TAINT,
        /** Left out of the slice: the API server dropped the taints, so a taint would not protect it. */
        WITHDRAW
    }
}
