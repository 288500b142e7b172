package io.vgpu.deviceplugin.devices;

import io.vgpu.deviceplugin.core.GpuFacts;
import io.vgpu.hamicore.MemoryInfo;
import io.vgpu.hamicore.Nvml;
import io.vgpu.hamicore.NvmlException;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * GPUs from NVML ({@link io.vgpu.hamicore.NativeNvml} on a node, {@link io.vgpu.hamicore.FakeNvml} in
 * tests). Memory that NVML reports as NOT_SUPPORTED (unified-memory parts) is "unknown", so the
 * register rules can use {@code preConfiguredDeviceMemory}; any other NVML error fails the scan (the
 * caller logs it and retries; HAMi would crash).
 */
public final class NvmlDeviceSource implements DeviceSource {

    private final Nvml nvml;
    private final String description;

    /**
     * @param nvml        an open NVML (closed with this source)
     * @param description for logs, e.g. {@code nvml:libnvidia-ml.so.1}
     */
    public NvmlDeviceSource(Nvml nvml, String description) {
        this.nvml = Objects.requireNonNull(nvml, "nvml");
        this.description = description;
    }

    /** The NVML handle (for the XID health watcher). */
    public Nvml nvml() {
        return nvml;
    }

    @Override
    public List<GpuFacts> scan() {
        int count = nvml.deviceCount();
        List<GpuFacts> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(new GpuFacts(nvml.uuid(i), i, nvml.name(i), memory(i), OptionalInt.of(nvml.numaNode(i)), true));
        }
        return List.copyOf(out);
    }

    private OptionalLong memory(int index) {
        try {
            MemoryInfo info = nvml.memory(index);
            return OptionalLong.of(info.totalBytes());
        } catch (NvmlException e) {
            if (e.returnCode() == NvmlException.NOT_SUPPORTED) {
                return OptionalLong.empty();
            }
            throw e;
        }
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public void close() {
        nvml.close();
    }
}
