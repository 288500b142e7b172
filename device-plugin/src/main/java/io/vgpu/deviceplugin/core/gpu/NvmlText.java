package io.vgpu.deviceplugin.core.gpu;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * NVML's PCI addresses, as HAMi reads them (register.go, spec §3.2). NVML's fixed-size C strings and the NUMA
 * node's sysfs path are the C code's ({@code device_string} and {@code vg_numa_node} in hamicore-jni; the
 * conformance runners check them there, through JNI). Pure.
 */
public final class NvmlText {

    /** NVML's bus id: a 4- or 8-digit domain, bus, device, function, in either case. */
    private static final Pattern BUS_ID = Pattern.compile("([0-9a-fA-F]{4,8}):([0-9a-fA-F]{2}):([0-9a-fA-F]{2})\\.([0-7])");

    private NvmlText() {
    }

    /**
     * A PCI bus id as NVML prints it ({@code 00000000:3B:00.0}) in the form of DRA's standard
     * attribute {@code resource.kubernetes.io/pciBusID}: 4-digit domain, lower case
     * ({@code 0000:3b:00.0}). Empty when the text is not a bus id or its domain does not fit in
     * four hex digits.
     */
    public static Optional<String> pciAddress(String nvmlBusId) {
        Matcher m = BUS_ID.matcher(nvmlBusId == null ? "" : nvmlBusId.strip());
        if (!m.matches()) {
            return Optional.empty();
        }
        String domain = m.group(1);
        int extra = domain.length() - 4;
        if (!domain.substring(0, extra).chars().allMatch(c -> c == '0')) {
            return Optional.empty();
        }
        return Optional.of((domain.substring(extra) + ":" + m.group(2) + ":" + m.group(3) + "." + m.group(4))
                .toLowerCase(Locale.ROOT));
    }
}
