package io.vgpu.state.codec;

import io.vgpu.state.model.GpuDevice;

import java.util.ArrayList;
import java.util.List;

/**
 * HAMi's legacy colon/comma node register format ({@code DecodeNodeDevices}/{@code EncodeNodeDevices}):
 * devices joined by {@code :} with a trailing {@code :}, each
 * {@code <id>,<count>,<devmem>,<devcore>,<type>,<numa>,<health>[,<index>,<mode>]}. Still used by
 * other vendors; NVIDIA reads JSON only since v2.8.0.
 */
final class LegacyNodeDevices {

    private static final String DEFAULT_MODE = "hami-core";

    private LegacyNodeDevices() {
    }

    /** Decodes with HAMi's exact errors; fields are checked in HAMi's order (count, memory, core, health, numa, index). */
    static Decoded<List<GpuDevice>> decode(String annotation) {
        if (annotation == null || !annotation.contains(":")) {
            return Decoded.err("node annotation missing device separator");
        }
        List<GpuDevice> out = new ArrayList<>();
        for (String segment : annotation.split(":", -1)) {
            if (segment.isEmpty()) {
                continue;
            }
            if (!segment.contains(",")) {
                return Decoded.err("malformed node annotation segment: " + GoStrconv.quote(segment));
            }
            Decoded<GpuDevice> device = device(segment.split(",", -1));
            if (!device.isOk()) {
                return Decoded.err(device.error());
            }
            out.add(device.value());
        }
        return Decoded.ok(List.copyOf(out));
    }

    private static Decoded<GpuDevice> device(String[] items) {
        if (items.length != 7 && items.length != 9) {
            return Decoded.err("unexpected field count " + items.length + " in node annotation");
        }
        Decoded<Long> count = GoStrconv.parseInt(items[1], 32);
        if (!count.isOk()) {
            return Decoded.err("invalid count field: " + count.error());
        }
        Decoded<Long> devmem = GoStrconv.parseInt(items[2], 32);
        if (!devmem.isOk()) {
            return Decoded.err("invalid memory field: " + devmem.error());
        }
        Decoded<Long> devcore = GoStrconv.parseInt(items[3], 32);
        if (!devcore.isOk()) {
            return Decoded.err("invalid core field: " + devcore.error());
        }
        Decoded<Boolean> health = GoStrconv.parseBool(items[6]);
        if (!health.isOk()) {
            return Decoded.err("invalid health field: " + health.error());
        }
        Decoded<Long> numa = GoStrconv.atoi(items[5]);
        if (!numa.isOk()) {
            return Decoded.err("invalid numa field: " + numa.error());
        }
        if (numa.value() != numa.value().intValue()) {
            return Decoded.err("numa field beyond what this implementation holds: " + numa.value());
        }
        long index = 0;
        String mode = DEFAULT_MODE;
        if (items.length == 9) {
            Decoded<Long> parsed = GoStrconv.atoi(items[7]);
            if (!parsed.isOk()) {
                return Decoded.err("invalid index field: " + parsed.error());
            }
            index = parsed.value();
            if (index < 0) {
                return Decoded.err("index field must not be negative: " + index);
            }
            if (index > Integer.MAX_VALUE) {
                return Decoded.err("index field beyond what this implementation holds: " + index);
            }
            mode = items[8];
        }
        return Decoded.ok(new GpuDevice(items[0], (int) index, count.value().intValue(), devmem.value().intValue(),
                devcore.value().intValue(), items[4], numa.value().intValue(), mode, List.of(), health.value()));
    }

    /** Encodes every device with all 9 fields, each followed by {@code :}. */
    static String encode(List<GpuDevice> devices) {
        StringBuilder out = new StringBuilder();
        for (GpuDevice d : devices) {
            out.append(d.id()).append(',')
                    .append(d.count()).append(',')
                    .append(d.devmem()).append(',')
                    .append(d.devcore()).append(',')
                    .append(d.type()).append(',')
                    .append(d.numa()).append(',')
                    .append(GoStrconv.formatBool(d.health())).append(',')
                    .append(d.index()).append(',')
                    .append(d.mode()).append(':');
        }
        return out.toString();
    }
}
