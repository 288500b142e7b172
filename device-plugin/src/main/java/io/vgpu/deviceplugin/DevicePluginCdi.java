package io.vgpu.deviceplugin;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vgpu.deviceplugin.cdi.CdiSpec;
import io.vgpu.deviceplugin.cdi.CdiSpecFiles;
import io.vgpu.deviceplugin.cdi.DevicePluginSpec;
import io.vgpu.deviceplugin.cdi.DriverLibraries;
import io.vgpu.deviceplugin.config.ConfigurationException;
import io.vgpu.deviceplugin.config.DevicePluginConfig;
import io.vgpu.deviceplugin.config.DraPluginSettings;
import io.vgpu.deviceplugin.core.allocate.AllocateSettings;
import io.vgpu.deviceplugin.core.allocate.CdiSettings;
import io.vgpu.deviceplugin.core.allocate.DeviceIdStrategy;
import io.vgpu.deviceplugin.core.allocate.DeviceListStrategy;
import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.deviceplugin.core.mig.MigStrategy;
import io.vgpu.state.dra.DraNames;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Device-plugin mode's CDI spec for the {@code cdi-annotations} / {@code cdi-cri} strategies, written once at
 * start as NVIDIA's plugin does ({@link DevicePluginSpec}, into {@code VGPU_DRA_CDI_DIR}), with the driver
 * libraries decided the way DRA mode decides them ({@link DriverLibraries} over {@code VGPU_DRA_STATIC_CDI_DIRS}
 * and {@code VGPU_DRA_DRIVER_LIBRARIES}). The spec only names whole GPUs: MIG devices (dynamic instances are
 * made at {@code Allocate}, static ones would need their capability nodes) are refused with the CDI strategies.
 * File I/O on a worker.
 */
final class DevicePluginCdi {

    private static final Logger LOG = LoggerFactory.getLogger(DevicePluginCdi.class);

    private DevicePluginCdi() {
    }

    /**
     * Writes the spec when a CDI strategy is configured.
     *
     * @param served the GPUs the main resource serves
     * @return how answers get the libraries ({@link CdiSettings.Libraries#IN_SPEC} without CDI strategies);
     *         fails with a {@link ConfigurationException} for MIG with CDI, or {@code cdi} libraries without a
     *         static spec, and with the I/O error when the spec cannot be written
     */
    static Future<CdiSettings.Libraries> write(Vertx vertx, DevicePluginConfig config, String operatingMode,
                                               MigStrategy migStrategy, List<GpuFacts> served) {
        if (config.deviceListStrategies().stream().noneMatch(DeviceListStrategy::isCdi)) {
            return Future.succeededFuture(CdiSettings.Libraries.IN_SPEC);
        }
        String strategies = config.deviceListStrategies().stream().map(DeviceListStrategy::wire).toList().toString();
        if (AllocateSettings.MODE_MIG.equals(operatingMode)) {
            return Future.failedFuture(new ConfigurationException("device list strategy " + strategies
                    + " names devices of a CDI spec written at start, but operatingmode mig creates its MIG instances "
                    + "at Allocate: use envvar (or volume-mounts) with dynamic MIG"));
        }
        if (migStrategy != MigStrategy.NONE) {
            return Future.failedFuture(new ConfigurationException("device list strategy " + strategies
                    + " with mig-strategy " + migStrategy.name().toLowerCase() + ": the generated CDI spec holds whole "
                    + "GPUs only; use envvar (or volume-mounts) with the static MIG strategies"));
        }
        return vertx.executeBlocking(() -> writeNow(config.draPlugin(), config.deviceIdStrategy(), served));
    }

    private static CdiSettings.Libraries writeNow(DraPluginSettings cdi, DeviceIdStrategy ids, List<GpuFacts> served) {
        List<DevicePluginSpec.Gpu> gpus = new ArrayList<>();
        Map<Integer, String> idByMinor = new LinkedHashMap<>();
        for (GpuFacts g : served) {
            if (g.details().minorNumber().isEmpty()) {
                LOG.warn("GPU {} is not in the CDI spec: its minor number (/dev/nvidia<minor>) is unknown, so a "
                        + "container given it by CDI name will not start", g.uuid());
                continue;
            }
            String name = ids == DeviceIdStrategy.INDEX ? Integer.toString(g.index()) : g.uuid();
            int minor = g.details().minorNumber().getAsInt();
            gpus.add(new DevicePluginSpec.Gpu(name, minor));
            idByMinor.put(minor, name);
        }
        if (gpus.isEmpty()) {
            LOG.warn("no GPU with a known minor number to put in the CDI spec: none written");
            return CdiSettings.Libraries.agentSpec(Map.of());
        }
        String ownKind = DevicePluginSpec.kind(CdiSettings.DEFAULT_VENDOR);
        List<Map.Entry<String, CdiSpec>> statics = new ArrayList<>();
        for (CdiSpecFiles.Found f : CdiSpecFiles.scan(cdi.staticCdiDirs())) {
            f.spec().filter(s -> !ownKind.equals(s.kind()) && !DraNames.CDI_KIND.equals(s.kind()))
                    .ifPresent(s -> statics.add(new AbstractMap.SimpleImmutableEntry<>(f.file().toString(), s)));
        }
        DriverLibraries libraries = DriverLibraries.choose(cdi.driverLibraries(), idByMinor.keySet(), statics);
        if (cdi.driverLibraries() == DriverLibraries.Mode.CDI && !libraries.byReference()) {
            throw new ConfigurationException("cannot serve the CDI device list strategies: " + libraries.source());
        }
        CdiSpec spec = DevicePluginSpec.of(CdiSettings.DEFAULT_VENDOR, gpus);
        Path file;
        try {
            file = new CdiSpecFiles(cdi.cdiDir()).write(DevicePluginSpec.fileName(CdiSettings.DEFAULT_VENDOR), spec);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the device plugin's CDI spec into " + cdi.cdiDir() + ": "
                    + e.getMessage(), e);
        }
        Map<String, String> staticById = new LinkedHashMap<>();
        idByMinor.forEach((minor, id) -> libraries.device(minor).ifPresent(d -> staticById.put(id, d)));
        LOG.info("CDI spec {} written: {} GPU(s) as {}=<{}>; driver libraries: {}", file, gpus.size(), ownKind,
                ids == DeviceIdStrategy.INDEX ? "index" : "uuid", libraries.source());
        return CdiSettings.Libraries.agentSpec(staticById);
    }
}
