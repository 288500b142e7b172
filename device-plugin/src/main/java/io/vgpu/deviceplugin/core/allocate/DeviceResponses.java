package io.vgpu.deviceplugin.core.allocate;

import io.vgpu.deviceplugin.core.advertise.DeviceIds;
import io.vgpu.deviceplugin.core.advertise.DeviceInventory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The runtime-facing part of a container's answer, before HAMi-core is added (HAMi
 * {@code getAllocateResponse}, spec §2.4): which devices the NVIDIA container runtime must expose and
 * how. Pure and thread-safe.
 */
public final class DeviceResponses {

    /** The runtime's device list variable. */
    public static final String VISIBLE_DEVICES = "NVIDIA_VISIBLE_DEVICES";
    /** The runtime's IMEX channel variable. */
    public static final String IMEX_CHANNELS = "NVIDIA_IMEX_CHANNELS";
    /** Root of the {@code volume-mounts} device list. */
    public static final String VOLUME_MOUNT_ROOT = "/var/run/nvidia-container-devices";
    private static final String VOLUME_MOUNT_HOST_PATH = "/dev/null";

    private DeviceResponses() {
    }

    /**
     * The answer for {@code requestIds}.
     *
     * @param requestIds device IDs (GPU UUIDs, possibly with {@code ::<n>} replica suffixes)
     * @param settings   strategies and flags
     * @param inventory  NVML indices for the {@code index} strategy
     * @param responseId a fresh UUID, used only in the CDI annotation key
     * @return the answer; with CDI strategies and {@link CdiSettings.Libraries#agentSpec()}, each GPU's name is
     *         followed by its device in {@code nvidia-ctk}'s static spec when there is one, and a CDI-only answer
     *         sets {@code NVIDIA_VISIBLE_DEVICES} too (the decision DRA mode makes)
     */
    public static Builder forDevices(List<String> requestIds, AllocateSettings settings, DeviceInventory inventory,
                                     String responseId) {
        List<String> ids = runtimeIds(requestIds, settings.deviceIdStrategy(), inventory);
        Builder out = new Builder();
        if (settings.deviceListStrategies().stream().anyMatch(DeviceListStrategy::isCdi)) {
            addCdi(out, ids, settings, responseId);
        }
        if (settings.deviceListStrategies().stream().allMatch(DeviceListStrategy::isCdi)) {
            if (settings.cdi().libraries().agentSpec() && !ids.isEmpty()) {
                // the agent's spec creates device nodes only: the NVIDIA runtime injects the libraries for these
                out.envs.put(VISIBLE_DEVICES, String.join(",", ids));
            }
            return out;
        }
        if (settings.uses(DeviceListStrategy.ENVVAR)) {
            out.envs.put(VISIBLE_DEVICES, String.join(",", ids));
            if (!settings.imexChannelIds().isEmpty()) {
                out.envs.put(IMEX_CHANNELS, String.join(",", settings.imexChannelIds()));
            }
        }
        if (settings.uses(DeviceListStrategy.VOLUME_MOUNTS)) {
            out.envs.put(VISIBLE_DEVICES, VOLUME_MOUNT_ROOT);
            for (String id : ids) {
                out.mounts.add(new MountSpec(VOLUME_MOUNT_ROOT + "/" + id, VOLUME_MOUNT_HOST_PATH, false));
            }
            for (String channel : settings.imexChannelIds()) {
                out.mounts.add(new MountSpec(VOLUME_MOUNT_ROOT + "/imex/" + channel, VOLUME_MOUNT_HOST_PATH, false));
            }
        }
        if (settings.gdrcopyEnabled()) {
            out.envs.put("NVIDIA_GDRCOPY", "enabled");
        }
        if (settings.gdsEnabled()) {
            out.envs.put("NVIDIA_GDS", "enabled");
        }
        if (settings.mofedEnabled()) {
            out.envs.put("NVIDIA_MOFED", "enabled");
        }
        return out;
    }

    /**
     * HAMi {@code uniqueDeviceIDsFromAnnotatedDeviceIDs}: {@code uuid} → IDs without replica suffix;
     * {@code index} → the NVML index of each known ID (unknown IDs contribute nothing); duplicates
     * removed, first occurrence order kept.
     */
    static List<String> runtimeIds(List<String> requestIds, DeviceIdStrategy strategy, DeviceInventory inventory) {
        if (strategy == DeviceIdStrategy.UUID) {
            return DeviceIds.uniquePhysical(requestIds);
        }
        Set<String> out = new LinkedHashSet<>();
        for (String id : requestIds) {
            Integer index = inventory.indexByUuid().get(id);
            if (index != null) {
                out.add(String.valueOf(index));
            }
        }
        return List.copyOf(out);
    }

    private static void addCdi(Builder out, List<String> ids, AllocateSettings settings, String responseId) {
        CdiSettings cdi = settings.cdi();
        List<String> names = new ArrayList<>();
        for (String id : ids) {
            names.add(cdi.qualifiedName("gpu", id));
            String driver = cdi.libraries().staticById().get(id);
            if (driver != null) {
                names.add(driver);
            }
        }
        for (String channel : settings.imexChannelIds()) {
            names.add(cdi.qualifiedName("imex-channel", channel));
        }
        names.addAll(cdi.additionalDevices());
        if (names.isEmpty()) {
            return;
        }
        if (settings.uses(DeviceListStrategy.CDI_ANNOTATIONS)) {
            out.annotations.putAll(CdiAnnotations.of(cdi.annotationPrefix(), responseId, names));
        }
        if (settings.uses(DeviceListStrategy.CDI_CRI)) {
            out.cdiDevices.addAll(names);
        }
    }

    /** A container answer under construction; HAMi-core adds its env and mounts to it. */
    public static final class Builder {
        private final Map<String, String> envs = new TreeMap<>();
        private final List<MountSpec> mounts = new ArrayList<>();
        private final Map<String, String> annotations = new LinkedHashMap<>();
        private final List<String> cdiDevices = new ArrayList<>();

        /** Sets an env variable (a later value replaces an earlier one). */
        public Builder env(String name, String value) {
            envs.put(name, value);
            return this;
        }

        /** Appends a mount. */
        public Builder mount(String containerPath, String hostPath, boolean readOnly) {
            mounts.add(new MountSpec(containerPath, hostPath, readOnly));
            return this;
        }

        /** The finished answer. */
        public ContainerResponse build() {
            return new ContainerResponse(new TreeMap<>(envs), mounts, annotations, cdiDevices);
        }
    }
}
