package io.vgpu.deviceplugin.devices;

import io.vgpu.deviceplugin.core.gpu.GpuDetails;
import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.deviceplugin.core.gpu.NvmlText;
import io.vgpu.hamicore.DriverInfo;
import io.vgpu.hamicore.MajorMinor;
import io.vgpu.hamicore.MemoryInfo;
import io.vgpu.hamicore.Nvml;
import io.vgpu.hamicore.NvmlException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * GPUs from NVML ({@link io.vgpu.hamicore.NativeNvml} on a node, {@link io.vgpu.hamicore.FakeNvml} in
 * tests). Memory that NVML reports as NOT_SUPPORTED (unified-memory parts) is "unknown", so the
 * register rules can use {@code preConfiguredDeviceMemory}; any other NVML error fails the scan (the
 * caller logs it and retries; HAMi would crash).
 *
 * <p>The identity facts in {@link GpuFacts#details()} are best effort: what the driver cannot answer
 * is unknown ({@link Nvml}'s contract), and a query that fails otherwise leaves that one fact unknown
 * too, with one warning per GPU, function and code, instead of failing the scan. Device-plugin mode
 * reads none of them, so they can never take a node's GPUs away.
 */
public final class NvmlDeviceSource implements DeviceSource {

    private static final Logger LOG = LoggerFactory.getLogger(NvmlDeviceSource.class);
    private static final int NODE_WIDE = -1;

    private final Nvml nvml;
    private final String description;
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

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
        // a blank version is as good as none (GpuDetails refuses blank values)
        DriverInfo driver = new DriverInfo(bestEffort(NODE_WIDE, nvml::driverVersion).filter(v -> !v.isBlank()),
                bestEffort(NODE_WIDE, nvml::cudaDriverVersion));
        List<GpuFacts> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(new GpuFacts(nvml.uuid(i), i, nvml.name(i), memory(i), OptionalInt.of(nvml.numaNode(i)), true,
                    details(i, driver)));
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

    private GpuDetails details(int index, DriverInfo driver) {
        Optional<Integer> minor = bestEffort(index, () -> {
            OptionalInt n = nvml.minorNumber(index);
            return n.isPresent() ? Optional.of(n.getAsInt()) : Optional.empty();
        }).filter(n -> n >= 0);
        return new GpuDetails(minor.map(OptionalInt::of).orElseGet(OptionalInt::empty),
                bestEffort(index, () -> nvml.architecture(index)),
                bestEffort(index, () -> nvml.brand(index)),
                bestEffort(index, () -> nvml.cudaComputeCapability(index)).map(MajorMinor::toString),
                driver.version(),
                driver.cudaVersion().map(MajorMinor::toString),
                bestEffort(index, () -> Optional.of(nvml.pciBusId(index))).flatMap(id -> pciAddress(index, id)));
    }

    /** NVML's bus id in DRA's form; one that cannot be read that way is unknown (warned once). */
    private Optional<String> pciAddress(int index, String nvmlBusId) {
        Optional<String> address = NvmlText.pciAddress(nvmlBusId);
        if (address.isEmpty() && warned.add(index + "/pciAddress/" + nvmlBusId)) {
            LOG.warn("GPU {}: NVML bus id \"{}\" is not a dddd:bb:dd.f PCI address; reported unknown", index, nvmlBusId);
        }
        return address;
    }

    /** The fact, or unknown when its query fails (warned once per GPU, function and code). */
    private <T> Optional<T> bestEffort(int index, Supplier<Optional<T>> fact) {
        try {
            return fact.get();
        } catch (NvmlException e) {
            if (warned.add(index + "/" + e.function() + "/" + e.returnCode())) {
                LOG.warn("{}: {}; that fact is reported unknown (device-plugin mode does not use it)",
                        index == NODE_WIDE ? "NVML driver facts" : "GPU " + index, e.getMessage());
            }
            return Optional.empty();
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
