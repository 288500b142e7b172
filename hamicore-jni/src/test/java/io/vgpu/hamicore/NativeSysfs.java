package io.vgpu.hamicore;

import java.nio.file.Path;

/**
 * The shipped C code's NUMA lookup ({@code vg_numa_node}, through {@code vg_pci_sysfs_name}) for conformance
 * runners in other modules, so HAMi's vectors run against the code that ships instead of a Java twin. Test jar
 * only.
 */
public final class NativeSysfs {

    private NativeSysfs() {
    }

    /**
     * The NUMA node the C code reads for {@code nvmlBusId} under {@code sysfsRoot} (0 when the file is missing,
     * unreadable or negative, as HAMi).
     */
    public static int numaNode(Path sysfsRoot, String nvmlBusId) {
        NativeLibrary.load();
        return NativeBridge.numaNode(sysfsRoot.toString(), nvmlBusId);
    }
}
