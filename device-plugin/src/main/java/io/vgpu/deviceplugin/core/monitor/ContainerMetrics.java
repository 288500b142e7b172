package io.vgpu.deviceplugin.core.monitor;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static io.vgpu.deviceplugin.core.monitor.HamiMetrics.unsignedToDouble;

/**
 * Per-container, per-device series from one region: HAMi's {@code collectContainerMetrics}
 * (spec §4.3 step 2, §4.4).
 *
 * <p>For each device slot {@code i} in {@code 0 .. deviceNum()-1}: skipped when its UUID is not
 * initialised (first byte 0) or its first 40 bytes are not valid UTF-8; otherwise, in this order,
 * used, limit, device memory, utilisation, context, module, buffer and, only when
 * {@code last_kernel_time > 0}, the elapsed seconds {@code max(now - last_kernel_time, 0)}. With
 * {@code legacy} each legacy series follows its counterpart. Labels: namespace, pod, container,
 * {@code vdevice_index} = {@code i}, {@code device_uuid} = the first 40 bytes of {@code uuids[i]}
 * (NUL bytes of a shorter UUID included, as HAMi does).
 */
public final class ContainerMetrics {

    /** Bytes of {@code uuids[i]} HAMi puts in the {@code device_uuid} label. */
    public static final int UUID_LABEL_BYTES = 40;

    private ContainerMetrics() {
    }

    /**
     * @param pod        the pod (namespace and name are used)
     * @param container  the container name, as in the pod spec
     * @param usage      the container's region
     * @param nowSeconds the scrape time, Unix seconds
     * @param legacy     also emit the legacy families ({@code --legacy-metrics})
     */
    public static Collected collect(MonitoredPod pod, String container, UsageInfo usage, long nowSeconds,
                                    boolean legacy) {
        List<MetricSeries> out = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        int devices = usage.deviceNum();
        for (int i = 0; i < devices; i++) {
            String where = "device " + i + " of " + pod.namespace() + "/" + pod.name() + " container " + container;
            if (!usage.isValidUuid(i)) {
                problems.add(where + ": UUID not yet initialised; skipped until the next scrape");
                continue;
            }
            Optional<String> uuid = uuidLabel(usage.deviceUuidBytes(i));
            if (uuid.isEmpty()) {
                problems.add(where + ": UUID is not valid UTF-8; skipped until the next scrape");
                continue;
            }
            device(out, pod, container, i, uuid.get(), usage, nowSeconds, legacy);
        }
        return new Collected(out, problems);
    }

    private static void device(List<MetricSeries> out, MonitoredPod pod, String container, int i, String uuid,
                               UsageInfo usage, long nowSeconds, boolean legacy) {
        long total = usage.deviceMemoryTotal(i);
        long limit = usage.deviceMemoryLimit(i);
        long context = usage.deviceMemoryContextSize(i);
        long module = usage.deviceMemoryModuleSize(i);
        long buffer = usage.deviceMemoryBufferSize(i);
        long smUtil = usage.deviceSmUtil(i);
        long lastKernel = usage.lastKernelTime();

        String[] labels = {pod.namespace(), pod.name(), container, Integer.toString(i), uuid};
        out.add(HamiMetrics.VGPU_MEMORY_USED.series(unsignedToDouble(total), labels));
        legacy(out, legacy, HamiMetrics.LEGACY_VGPU_MEMORY_USAGE, unsignedToDouble(total), labels);
        out.add(HamiMetrics.VGPU_MEMORY_LIMIT.series(unsignedToDouble(limit), labels));
        legacy(out, legacy, HamiMetrics.LEGACY_VGPU_MEMORY_LIMIT, unsignedToDouble(limit), labels);
        out.add(HamiMetrics.CONTAINER_DEVICE_MEMORY.series(unsignedToDouble(total), labels));
        // uint64 arithmetic: the offset wraps like Go's when the parts exceed the total
        long offset = total - context - module - buffer;
        legacy(out, legacy, HamiMetrics.LEGACY_DEVICE_MEMORY_DESC, unsignedToDouble(total), labels[0], labels[1],
                labels[2], labels[3], labels[4], Long.toUnsignedString(context), Long.toUnsignedString(module),
                Long.toUnsignedString(buffer), Long.toUnsignedString(offset));
        out.add(HamiMetrics.CONTAINER_DEVICE_UTILIZATION.series(unsignedToDouble(smUtil), labels));
        legacy(out, legacy, HamiMetrics.LEGACY_DEVICE_UTILIZATION_DESC, unsignedToDouble(smUtil), labels);
        out.add(HamiMetrics.VGPU_MEMORY_CONTEXT.series(unsignedToDouble(context), labels));
        out.add(HamiMetrics.VGPU_MEMORY_MODULE.series(unsignedToDouble(module), labels));
        out.add(HamiMetrics.VGPU_MEMORY_BUFFER.series(unsignedToDouble(buffer), labels));
        if (lastKernel > 0) {
            double elapsed = Math.max(nowSeconds - lastKernel, 0);
            out.add(HamiMetrics.CONTAINER_LAST_KERNEL_ELAPSED.series(elapsed, labels));
            legacy(out, legacy, HamiMetrics.LEGACY_DEVICE_LAST_KERNEL, elapsed, labels);
        }
    }

    private static void legacy(List<MetricSeries> out, boolean legacy, MetricDescriptor family, double value,
                               String... labels) {
        if (legacy) {
            out.add(family.series(value, labels));
        }
    }

    /**
     * The {@code device_uuid} label for a 96-byte {@code uuids[i]}: its first 40 bytes, or empty
     * when they are not valid UTF-8 (HAMi's {@code utf8.ValidString} check).
     */
    public static Optional<String> uuidLabel(byte[] uuidBytes) {
        byte[] head = Arrays.copyOf(uuidBytes, Math.min(uuidBytes.length, UUID_LABEL_BYTES));
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(head))
                    .toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }
}
