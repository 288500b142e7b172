package io.vgpu.deviceplugin.dra.kubelet;

import io.vgpu.deviceplugin.cdi.CdiDevice;
import io.vgpu.deviceplugin.cdi.CdiSpec;
import io.vgpu.deviceplugin.cdi.CdiSpecFiles;
import io.vgpu.deviceplugin.cdi.DeviceNode;
import io.vgpu.deviceplugin.core.advertise.DeviceFilter;
import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.deviceplugin.core.hook.HookFiles;
import io.vgpu.deviceplugin.core.register.NodeSettings;
import io.vgpu.deviceplugin.core.register.NvidiaSettings;
import io.vgpu.deviceplugin.core.outcome.Outcome;
import io.vgpu.deviceplugin.devices.NvmlDeviceSource;
import io.vgpu.deviceplugin.dra.prepare.ClaimObject;
import io.vgpu.deviceplugin.dra.prepare.ClaimPlanner;
import io.vgpu.deviceplugin.dra.prepare.ClaimRef;
import io.vgpu.deviceplugin.cdi.DriverLibraries;
import io.vgpu.deviceplugin.dra.prepare.NodeGpu;
import io.vgpu.deviceplugin.dra.prepare.NodeGpus;
import io.vgpu.deviceplugin.dra.prepare.PrepareSettings;
import io.vgpu.deviceplugin.dra.prepare.PreparedClaim;
import io.vgpu.hamicore.NativeLoadException;
import io.vgpu.hamicore.NativeNvml;
import io.vgpu.hamicore.Nvml;
import io.vgpu.hamicore.NvmlConfig;
import io.vgpu.hamicore.NvmlException;
import io.vgpu.state.dra.DraNames;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The DRA half of {@code scripts/gpu-check.sh}: on a machine with GPUs, builds the CDI edits this
 * driver would write for each real GPU (a claim taking the whole card, through the shipped
 * {@link ClaimPlanner}) and checks them against NVML and the host: {@code NVIDIA_VISIBLE_DEVICES} is
 * the NVML UUID, the device node {@code /dev/nvidia<minor>} is a character device with NVIDIA's major
 * 195 and NVML's minor number, the memory limit is NVML's total memory in MiB. It also prints how
 * containers would get the driver libraries ({@code VGPU_DRA_DRIVER_LIBRARIES=auto}: a static
 * {@code nvidia-ctk} spec in the CDI directories, or the NVIDIA runtime).
 *
 * <p>Read-only: it writes no file and changes no GPU setting. Usage:
 * {@code java -cp vgpu-device-plugin-all.jar io.vgpu.deviceplugin.dra.kubelet.DraGpuCheck
 * [--nvml LIB] [--dev-root DIR] [--cdi-dirs DIR,DIR] [--sysfs DIR]}. Exit status 0 when every edit
 * matches, 1 on a mismatch or when NVML cannot be used.
 */
public final class DraGpuCheck {

    /** The major number of NVIDIA's GPU device nodes ({@code /dev/nvidia<minor>}). */
    static final long NVIDIA_MAJOR = 195;
    private static final long MIB = 1L << 20;
    private static final int S_IFMT = 0170000;
    private static final int S_IFCHR = 0020000;

    private DraGpuCheck() {
    }

    /** Entry point. */
    public static void main(String[] args) {
        Map<String, String> options = options(args);
        NvmlConfig config = NvmlConfig.defaults().withSysfsRoot(Path.of(options.getOrDefault("--sysfs", "/sys")));
        if (options.containsKey("--nvml")) {
            config = config.withLibrary(options.get("--nvml"));
        }
        int mismatches;
        try (Nvml nvml = NativeNvml.open(config)) {
            mismatches = check(nvml, Path.of(options.getOrDefault("--dev-root", "/")),
                    dirs(options.getOrDefault("--cdi-dirs", "/etc/cdi,/var/run/cdi")));
        } catch (NvmlException | NativeLoadException e) {
            System.out.println("dra check: NVML not usable: " + e.getMessage());
            System.exit(1);
            return;
        }
        System.exit(mismatches == 0 ? 0 : 1);
    }

    /** Prints one line per GPU and returns the number of mismatches. */
    static int check(Nvml nvml, Path devRoot, List<Path> cdiDirs) {
        List<GpuFacts> scan = new NvmlDeviceSource(nvml, "nvml").scan();
        NodeSettings node = new NodeSettings(NvidiaSettings.defaults(), "hami-core", false, DeviceFilter.none());
        NodeGpus gpus = NodeGpus.of(scan, node);
        List<Map.Entry<String, CdiSpec>> specs = new ArrayList<>();
        CdiSpecFiles.scan(cdiDirs).forEach(f -> f.spec().filter(s -> !DraNames.CDI_KIND.equals(s.kind()))
                .ifPresent(s -> specs.add(new AbstractMap.SimpleImmutableEntry<>(f.file().toString(), s))));
        DriverLibraries libraries = DriverLibraries.choose(DriverLibraries.Mode.AUTO, gpus.minors(), specs);
        System.out.println("driver libraries: " + libraries.source());
        gpus.leftOut().forEach(why -> System.out.println("not offered: " + why));
        ClaimPlanner planner = new ClaimPlanner(PrepareSettings.of("gpu-check", "/usr/local", "", node,
                DriverLibraries.Mode.AUTO), gpus);
        int mismatches = 0;
        for (NodeGpu gpu : gpus.all()) {
            List<String> problems = new ArrayList<>();
            ClaimObject.Result whole = new ClaimObject.Result("gpu", DraNames.DRIVER, "gpu-check", gpu.deviceName(),
                    Optional.of("gpu-check"), Map.of("memory", gpu.memoryBytes(), "cores", 0L, "slots", NodeGpu.SLOTS), false);
            ClaimRef ref = new ClaimRef("gpu-check", "gpu-check", "gpu-check");
            Outcome<PreparedClaim> planned = planner.plan(ref, new ClaimObject(ref, Optional.of(new ClaimObject.Allocation(
                    List.of(whole), List.of())), List.of()), libraries, HookFiles.none());
            if (!planned.isOk()) {
                System.out.println(gpu.deviceName() + "\t" + gpu.uuid() + "\tMISMATCH: cannot prepare: " + planned.error());
                mismatches++;
                continue;
            }
            CdiDevice device = planned.value().spec().orElseThrow().devices().get(0);
            long nvmlMib = nvml.memory(gpu.index()).totalBytes() / MIB;
            String uuid = nvml.uuid(gpu.index());
            int minor = nvml.minorNumber(gpu.index()).orElse(-1);
            expect(problems, device.containerEdits().env().contains("NVIDIA_VISIBLE_DEVICES=" + uuid),
                    "NVIDIA_VISIBLE_DEVICES is not the NVML UUID " + uuid);
            expect(problems, device.containerEdits().env().contains("CUDA_DEVICE_MEMORY_LIMIT_0=" + nvmlMib + "m"),
                    "memory limit is not NVML's " + nvmlMib + " MiB: " + device.containerEdits().env());
            List<String> nodes = device.containerEdits().deviceNodes().stream().map(DeviceNode::path).toList();
            expect(problems, nodes.equals(List.of("/dev/nvidia" + minor)), "device nodes " + nodes + " are not /dev/nvidia"
                    + minor + " (NVML minor number)");
            problems.addAll(deviceNode(devRoot, minor));
            String reference = libraries.device(gpu.minor()).map(d -> "\tlibraries " + d).orElse("");
            System.out.println(gpu.deviceName() + "\t" + uuid + "\t/dev/nvidia" + minor + "\t" + nvmlMib + " MiB" + reference
                    + "\t" + (problems.isEmpty() ? "ok" : "MISMATCH: " + String.join("; ", problems)));
            mismatches += problems.isEmpty() ? 0 : 1;
        }
        System.out.println("dra gpus: " + gpus.all().size() + ", mismatches: " + mismatches);
        return mismatches;
    }

    /** {@code <devRoot>/dev/nvidia<minor>} is a character device 195:minor. */
    private static List<String> deviceNode(Path devRoot, int minor) {
        Path node = devRoot.resolve("dev/nvidia" + minor);
        try {
            Map<String, Object> a = Files.readAttributes(node, "unix:mode,rdev");
            int mode = (Integer) a.get("mode");
            long rdev = (Long) a.get("rdev");
            long major = ((rdev >> 8) & 0xfff) | ((rdev >>> 32) & ~0xfffL);
            long min = (rdev & 0xff) | ((rdev >>> 12) & ~0xffL);
            if ((mode & S_IFMT) != S_IFCHR) {
                return List.of(node + " is not a character device");
            }
            if (major != NVIDIA_MAJOR || min != minor) {
                return List.of(node + " is " + major + ":" + min + ", not " + NVIDIA_MAJOR + ":" + minor);
            }
            return List.of();
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return List.of(node + " is missing or unreadable (" + e.getClass().getSimpleName() + ")");
        }
    }

    private static void expect(List<String> problems, boolean ok, String problem) {
        if (!ok) {
            problems.add(problem);
        }
    }

    private static List<Path> dirs(String list) {
        return List.of(list.split(",")).stream().filter(s -> !s.isBlank()).map(Path::of).toList();
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> out = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!List.of("--nvml", "--dev-root", "--cdi-dirs", "--sysfs").contains(args[i])) {
                System.out.println("usage: DraGpuCheck [--nvml LIB] [--dev-root DIR] [--cdi-dirs DIR,DIR] [--sysfs DIR]");
                System.exit(2);
            }
            out.put(args[i], args[i + 1]);
        }
        return out;
    }
}
