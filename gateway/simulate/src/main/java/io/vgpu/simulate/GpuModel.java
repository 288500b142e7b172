package io.vgpu.simulate;

import java.util.List;
import java.util.Locale;

/**
 * A GPU model the synthetic cluster can contain: the name NVML reports (the plugin prefixes
 * {@code NVIDIA-} when it is missing) and its memory.
 *
 * @param type   registered type string
 * @param memMiB memory in MiB
 */
public record GpuModel(String type, int memMiB) {

    /** A mix of data-centre cards seen in HAMi clusters. */
    public static final List<GpuModel> CATALOGUE = List.of(
            new GpuModel("NVIDIA A100-SXM4-80GB", 81920),
            new GpuModel("NVIDIA A100-SXM4-40GB", 40960),
            new GpuModel("NVIDIA H100 80GB HBM3", 81559),
            new GpuModel("NVIDIA-Tesla V100-PCIE-32GB", 32768),
            new GpuModel("NVIDIA L4", 23034),
            new GpuModel("NVIDIA-Tesla T4", 15360));

    /** Looks a model up by a case-insensitive substring of its type (e.g. {@code a100-sxm4-80}). */
    public static GpuModel byName(String fragment) {
        String f = fragment.trim().toLowerCase(Locale.ROOT);
        return CATALOGUE.stream().filter(m -> m.type().toLowerCase(Locale.ROOT).contains(f)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown GPU model '" + fragment + "'; known: "
                        + CATALOGUE.stream().map(GpuModel::type).toList()));
    }
}
