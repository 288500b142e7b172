package io.vgpu.hamicore;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The Java half of {@code scripts/gpu-check.sh}: lists the GPUs NVML reports through the JNI library
 * (the path the device plugin takes): first {@code driver: V, cuda: M.m}, then one tab-separated line
 * per GPU, then {@code gpus: N}. Facts the driver does not know print as {@code unknown}. It only
 * reads: it never changes a GPU setting.
 * Usage: {@code java -cp hamicore-jni.jar io.vgpu.hamicore.GpuCheck [NVML library]}. Exit status 0 when
 * NVML answered, 1 when it could not be used (the typed error is printed).
 */
public final class GpuCheck {

    private static final String UNKNOWN = "unknown";

    private GpuCheck() {
    }

    /** Entry point. */
    public static void main(String[] args) {
        NvmlConfig config = args.length > 0 ? NvmlConfig.defaults().withLibrary(args[0]) : NvmlConfig.defaults();
        try (Nvml nvml = NativeNvml.open(config)) {
            DriverInfo driver = nvml.describeDriver();
            List<GpuInfo> gpus = nvml.describeAll();
            System.out.println("driver: " + text(driver.version()) + ", cuda: " + text(driver.cudaVersion()));
            // the identity columns come last so that the older columns keep their positions
            System.out.println("index\tuuid\tname\tmemory_total_mib\tmemory_used_mib\tnuma\tmig\tpci_bus_id"
                    + "\tminor\tarchitecture\tbrand\tcuda_compute_capability");
            for (GpuInfo g : gpus) {
                System.out.println(String.format(Locale.ROOT, "%d\t%s\t%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s", g.index(),
                        g.uuid(), g.name(), g.memoryTotalBytes() >> 20, g.memoryUsedBytes() >> 20, g.numaNode(),
                        g.migEnabled() ? "on" : "off", g.pciBusId(),
                        g.minorNumber().isPresent() ? String.valueOf(g.minorNumber().getAsInt()) : UNKNOWN,
                        text(g.architecture()), text(g.brand()), text(g.cudaComputeCapability())));
            }
            System.out.println("gpus: " + gpus.size());
            gpus.forEach(g -> printMig(nvml, g.index()));
            printTopology(nvml, gpus);
        } catch (NvmlException | NativeLoadException e) {
            System.out.println("java path: NVML not usable: " + e.getMessage());
            System.exit(1);
        }
    }

    private static void printMig(Nvml nvml, int i) {
        for (GpuInstanceProfile p : nvml.gpuInstanceProfiles(i)) {
            System.out.println("mig " + i + ": " + p.name() + " (id " + p.id() + "): " + p.instanceCount() + " instances, "
                    + p.memoryMiB() + " MiB, " + p.multiprocessorCount() + " SMs, placements "
                    + p.placements().stream().map(pl -> pl.start() + "+" + pl.size()).collect(Collectors.joining(",")));
        }
        for (GpuInstance gi : nvml.gpuInstances(i)) {
            System.out.println("mig " + i + ": instance " + gi.id() + " of profile id " + gi.profileId() + " at "
                    + gi.placement().start() + "+" + gi.placement().size() + ", compute instances " + gi.computeInstanceIds());
        }
        for (MigDevice d : nvml.migDevices(i)) {
            System.out.println("mig " + i + ": device " + d.uuid() + " (instance " + d.gpuInstanceId() + "/"
                    + d.computeInstanceId() + ")");
        }
    }

    private static void printTopology(Nvml nvml, List<GpuInfo> gpus) {
        for (GpuInfo a : gpus) {
            for (GpuInfo b : gpus) {
                if (a.index() < b.index()) {
                    System.out.println("topology " + a.index() + "-" + b.index() + ": common ancestor "
                            + nvml.topologyCommonAncestor(a.index(), b.index()) + ", nvlinks " + links(nvml, a, b) + "/"
                            + links(nvml, b, a));
                }
            }
        }
    }

    private static long links(Nvml nvml, GpuInfo from, GpuInfo to) {
        return nvml.nvLinks(from.index()).stream().filter(l -> l.remoteBusId().equalsIgnoreCase(to.pciBusId())).count();
    }

    private static String text(Optional<?> fact) {
        return fact.map(String::valueOf).orElse(UNKNOWN);
    }
}
