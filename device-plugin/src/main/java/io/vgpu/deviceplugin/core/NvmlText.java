package io.vgpu.deviceplugin.core;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * NVML's fixed-size C strings and sysfs paths, as HAMi reads them (register.go, spec §3.2). Pure.
 */
public final class NvmlText {

    private NvmlText() {
    }

    /** The bytes up to the first NUL (all of them when there is none), as UTF-8. */
    public static String cString(byte[] bytes) {
        int end = 0;
        while (end < bytes.length && bytes[end] != 0) {
            end++;
        }
        return new String(bytes, 0, end, StandardCharsets.UTF_8);
    }

    /**
     * The sysfs file holding a GPU's NUMA node: NVML's 8-digit-domain bus id with one leading
     * {@code 0000} trimmed, lower-cased: {@code 00000000:3B:00.0} → {@code <sysfs>/bus/pci/devices/0000:3b:00.0/numa_node}.
     */
    public static String numaNodePath(String sysfsRoot, String pciBusId) {
        String id = pciBusId.startsWith("0000") ? pciBusId.substring(4) : pciBusId;
        return sysfsRoot + "/bus/pci/devices/" + id.toLowerCase(Locale.ROOT) + "/numa_node";
    }
}
