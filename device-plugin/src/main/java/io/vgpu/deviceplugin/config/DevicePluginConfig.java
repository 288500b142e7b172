package io.vgpu.deviceplugin.config;

import io.vgpu.deviceplugin.core.allocate.DeviceIdStrategy;
import io.vgpu.deviceplugin.core.allocate.DeviceListStrategy;
import io.vgpu.deviceplugin.core.health.XidPolicy;
import io.vgpu.deviceplugin.core.mode.AgentMode;
import io.vgpu.state.dra.DraNames;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The device plugin's process configuration, built once from the environment ({@link #fromEnv}).
 * Every key has the project prefix {@code VGPU_}; where the HAMi chart or NVIDIA's plugin already sets
 * a variable ({@code NODE_NAME}, {@code HOOK_PATH}, {@code DEVICE_LIST_STRATEGY}, {@code DP_*_HEALTHCHECKS},
 * …) that name is accepted too and the {@code VGPU_} key wins. Unknown {@code VGPU_*} variables and bad
 * values fail start-up with one message. The device settings ({@code deviceSplitCount}, scalings, …)
 * come from HAMi's device config file and per-node file, read by {@link DeviceConfigFile} and
 * {@link NodeConfigFile}.
 *
 * @param nodeName             this node ({@code VGPU_NODE_NAME} / {@code NODE_NAME}), required
 * @param kubeletDir           kubelet's device-plugin directory ({@code VGPU_KUBELET_DIR})
 * @param kubeletSocket        kubelet's registration socket ({@code VGPU_KUBELET_SOCKET}, relative to the dir)
 * @param registerWithKubelet  register at all ({@code VGPU_REGISTER_WITH_KUBELET}); false for dry runs
 * @param pluginSocket         this plugin's socket ({@code VGPU_PLUGIN_SOCKET}, relative to the dir)
 * @param deviceConfigFile     HAMi's device config YAML ({@code VGPU_DEVICE_CONFIG_FILE} / {@code CONFIG_FILE})
 * @param nodeConfigFile       HAMi's per-node JSON ({@code VGPU_NODE_CONFIG_FILE})
 * @param hookPath             HAMi's {@code HOOK_PATH} ({@code VGPU_HOOK_PATH} / {@code HOOK_PATH})
 * @param hostRoot             where host paths are visible to this process ({@code VGPU_HOST_ROOT}, default {@code /})
 * @param deviceSource         {@code nvml} or {@code fake} ({@code VGPU_DEVICE_SOURCE})
 * @param fakeGpusFile         YAML/JSON description of fake GPUs ({@code VGPU_FAKE_GPUS_FILE}), required for {@code fake}
 * @param nvmlLibrary          NVML library for {@code dlopen} ({@code VGPU_NVML_LIBRARY})
 * @param sysfsRoot            sysfs for NUMA lookups ({@code VGPU_SYSFS_ROOT})
 * @param deviceListStrategies {@code VGPU_DEVICE_LIST_STRATEGY} / {@code DEVICE_LIST_STRATEGY}, comma list
 * @param deviceIdStrategy     {@code VGPU_DEVICE_ID_STRATEGY} / {@code DEVICE_ID_STRATEGY}
 * @param libVgpuVersion       suffix of {@code libvgpu.so.<version>} to prefer ({@code VGPU_LIBVGPU_VERSION})
 * @param cdiAnnotationPrefix  {@code VGPU_CDI_ANNOTATION_PREFIX} / {@code CDI_ANNOTATION_PREFIX}
 * @param imexChannelIds       {@code VGPU_IMEX_CHANNEL_IDS} / {@code IMEX_CHANNEL_IDS}
 * @param gdrcopyEnabled       {@code VGPU_GDRCOPY_ENABLED} / {@code GDRCOPY_ENABLED}
 * @param gdsEnabled           {@code VGPU_GDS_ENABLED} / {@code GDS_ENABLED}
 * @param mofedEnabled         {@code VGPU_MOFED_ENABLED} / {@code MOFED_ENABLED}
 * @param xidPolicy            from {@code VGPU_DISABLE_HEALTHCHECKS} / {@code DP_DISABLE_HEALTHCHECKS} and the ENABLE twins
 * @param registerInterval     node register period after success ({@code VGPU_REGISTER_INTERVAL}, 30s)
 * @param registerRetry        node register period after an error ({@code VGPU_REGISTER_RETRY}, 5s)
 * @param kubeTimeout          timeout of every API call ({@code VGPU_KUBE_TIMEOUT}, 10s)
 * @param kubeletTimeout       timeout of the registration call ({@code VGPU_KUBELET_TIMEOUT}, 5s)
 * @param xidPoll              how long one NVML event wait blocks ({@code VGPU_XID_POLL}, 5s as HAMi)
 * @param metricsPort          the monitor's metrics port ({@code VGPU_METRICS_PORT}, 9394)
 * @param monitorEnabled       run the vGPU monitor in this JVM ({@code VGPU_MONITOR_ENABLED})
 * @param metricsBindAddress   the monitor's listen address ({@code VGPU_METRICS_BIND_ADDRESS}, {@code 0.0.0.0} =
 *                             every interface, as HAMi's {@code --metrics-bind-address :9394})
 * @param legacyMetrics        also export HAMi's legacy metric names ({@code VGPU_LEGACY_METRICS}, HAMi
 *                             {@code --legacy-metrics}, default false)
 * @param monitorScanInterval  the monitor's feedback tick: directory scan, then observe ({@code VGPU_MONITOR_SCAN_INTERVAL}, 5s)
 * @param monitorResyncInterval grace period before the monitor deletes the directory of a pod not on this node
 *                             ({@code VGPU_MONITOR_RESYNC_INTERVAL} / {@code HAMI_RESYNC_INTERVAL}, 5m)
 * @param mode                 the mode of a node without the label {@code vgpu.io/mode} ({@code VGPU_MODE}:
 *                             {@code device-plugin}, the default, or {@code dra}); the label wins
 * @param draEnabled           DRA mode may be served ({@code VGPU_DRA_ENABLED}, default true; the chart sets it
 *                             from {@code devicePlugin.dra.enabled}, which mounts the kubelet plugin and CDI directories)
 * @param modeRetry            how often a refused mode switch is tried again ({@code VGPU_MODE_RETRY}, 30s)
 * @param draPlugin            DRA mode's kubelet plugin: sockets, checkpoint, CDI ({@code VGPU_DRA_*}, {@link DraPluginSettings})
 */
public record DevicePluginConfig(String nodeName, Path kubeletDir, Path kubeletSocket, boolean registerWithKubelet,
                                 Path pluginSocket, Path deviceConfigFile, Path nodeConfigFile, String hookPath,
                                 Path hostRoot, String deviceSource, Path fakeGpusFile, String nvmlLibrary, Path sysfsRoot,
                                 List<DeviceListStrategy> deviceListStrategies, DeviceIdStrategy deviceIdStrategy,
                                 String libVgpuVersion, String cdiAnnotationPrefix, List<String> imexChannelIds,
                                 boolean gdrcopyEnabled, boolean gdsEnabled, boolean mofedEnabled, XidPolicy xidPolicy,
                                 Duration registerInterval, Duration registerRetry, Duration kubeTimeout,
                                 Duration kubeletTimeout, Duration xidPoll, int metricsPort, boolean monitorEnabled,
                                 String metricsBindAddress, boolean legacyMetrics, Duration monitorScanInterval,
                                 Duration monitorResyncInterval, AgentMode mode, boolean draEnabled, Duration modeRetry,
                                 DraPluginSettings draPlugin) {

    /** Devices come from NVML through hamicore-jni. */
    public static final String SOURCE_NVML = "nvml";
    /** Devices come from a YAML/JSON file (clusters and tests without GPUs). */
    public static final String SOURCE_FAKE = "fake";
    /** kubelet's device-plugin directory. */
    public static final String DEFAULT_KUBELET_DIR = "/var/lib/kubelet/device-plugins";
    /** Read by hamicore-jni itself (the JNI library path). */
    static final String HAMICORE_LIB_KEY = "VGPU_HAMICORE_LIB";

    /** Copies the lists. */
    public DevicePluginConfig {
        Objects.requireNonNull(nodeName, "nodeName");
        Objects.requireNonNull(metricsBindAddress, "metricsBindAddress");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(draPlugin, "draPlugin");
        deviceListStrategies = List.copyOf(deviceListStrategies);
        imexChannelIds = List.copyOf(imexChannelIds);
    }

    /**
     * Reads the configuration.
     *
     * @throws ConfigurationException listing every missing, bad or unknown variable
     */
    public static DevicePluginConfig fromEnv(Map<String, String> env) {
        EnvReader r = new EnvReader(env);
        r.alsoKnown(HAMICORE_LIB_KEY);
        NodeFeatures.KEYS.forEach(r::alsoKnown);
        String node = r.required("VGPU_NODE_NAME", "NODE_NAME");
        Path kubeletDir = r.path("VGPU_KUBELET_DIR", null, DEFAULT_KUBELET_DIR);
        Path kubeletSocket = kubeletDir.resolve(r.text("VGPU_KUBELET_SOCKET", null, "kubelet.sock"));
        boolean register = r.bool("VGPU_REGISTER_WITH_KUBELET", null, true);
        Path pluginSocket = kubeletDir.resolve(r.text("VGPU_PLUGIN_SOCKET", null, "vgpu-nvidia.sock"));
        if (pluginSocket.equals(kubeletSocket)) {
            r.problem("VGPU_PLUGIN_SOCKET must differ from the kubelet socket " + kubeletSocket);
        }
        String source = r.text("VGPU_DEVICE_SOURCE", null, SOURCE_NVML).strip();
        if (!SOURCE_NVML.equals(source) && !SOURCE_FAKE.equals(source)) {
            r.problem("VGPU_DEVICE_SOURCE=" + source + " is not nvml or fake");
        }
        String fakeFile = r.text("VGPU_FAKE_GPUS_FILE", null, "");
        if (SOURCE_FAKE.equals(source) && fakeFile.isBlank()) {
            r.problem("VGPU_FAKE_GPUS_FILE is required with VGPU_DEVICE_SOURCE=fake");
        }
        List<DeviceListStrategy> strategies = new ArrayList<>();
        for (String s : r.list("VGPU_DEVICE_LIST_STRATEGY", "DEVICE_LIST_STRATEGY", "envvar")) {
            DeviceListStrategy.parse(s).ifPresentOrElse(strategies::add,
                    () -> r.problem("device list strategy " + s + " is not envvar, volume-mounts, cdi-annotations or cdi-cri"));
        }
        DeviceIdStrategy idStrategy = r.parsed("VGPU_DEVICE_ID_STRATEGY", "DEVICE_ID_STRATEGY", DeviceIdStrategy.UUID,
                "uuid or index", DeviceIdStrategy::parse);
        String metricsBindAddress = r.text("VGPU_METRICS_BIND_ADDRESS", null, "0.0.0.0").strip();
        if (metricsBindAddress.isEmpty()) {
            r.problem("VGPU_METRICS_BIND_ADDRESS must not be blank (0.0.0.0 listens on every interface)");
        }
        AgentMode mode = r.parsed("VGPU_MODE", null, AgentMode.DEVICE_PLUGIN, "device-plugin or dra", AgentMode::parse);
        boolean draEnabled = r.bool("VGPU_DRA_ENABLED", null, true);
        if (mode == AgentMode.DRA && !draEnabled) {
            r.problem("VGPU_MODE=dra needs VGPU_DRA_ENABLED=true");
        }
        XidPolicy xids = XidPolicy.fromEnv(r.raw("VGPU_DISABLE_HEALTHCHECKS", "DP_DISABLE_HEALTHCHECKS").orElse(null),
                r.raw("VGPU_ENABLE_HEALTHCHECKS", "DP_ENABLE_HEALTHCHECKS").orElse(null));
        DevicePluginConfig config = new DevicePluginConfig(node, kubeletDir, kubeletSocket, register, pluginSocket,
                r.path("VGPU_DEVICE_CONFIG_FILE", "CONFIG_FILE", "/device-config.yaml"),
                r.path("VGPU_NODE_CONFIG_FILE", null, "/config/config.json"),
                r.text("VGPU_HOOK_PATH", "HOOK_PATH", "/usr/local"),
                r.path("VGPU_HOST_ROOT", null, "/"),
                source, fakeFile.isBlank() ? null : Path.of(fakeFile),
                r.text("VGPU_NVML_LIBRARY", null, "libnvidia-ml.so.1"),
                r.path("VGPU_SYSFS_ROOT", null, "/sys"),
                strategies, idStrategy,
                r.text("VGPU_LIBVGPU_VERSION", null, ""),
                r.text("VGPU_CDI_ANNOTATION_PREFIX", "CDI_ANNOTATION_PREFIX", "cdi.k8s.io/"),
                r.list("VGPU_IMEX_CHANNEL_IDS", "IMEX_CHANNEL_IDS", ""),
                r.bool("VGPU_GDRCOPY_ENABLED", "GDRCOPY_ENABLED", false),
                r.bool("VGPU_GDS_ENABLED", "GDS_ENABLED", false),
                r.bool("VGPU_MOFED_ENABLED", "MOFED_ENABLED", false),
                xids,
                r.duration("VGPU_REGISTER_INTERVAL", Duration.ofSeconds(30)),
                r.duration("VGPU_REGISTER_RETRY", Duration.ofSeconds(5)),
                r.duration("VGPU_KUBE_TIMEOUT", Duration.ofSeconds(10)),
                r.duration("VGPU_KUBELET_TIMEOUT", Duration.ofSeconds(5)),
                r.duration("VGPU_XID_POLL", Duration.ofSeconds(5)),
                r.port("VGPU_METRICS_PORT", 9394),
                r.bool("VGPU_MONITOR_ENABLED", null, true),
                metricsBindAddress,
                r.bool("VGPU_LEGACY_METRICS", null, false),
                r.duration("VGPU_MONITOR_SCAN_INTERVAL", Duration.ofSeconds(5)),
                r.duration("VGPU_MONITOR_RESYNC_INTERVAL", "HAMI_RESYNC_INTERVAL", Duration.ofMinutes(5)),
                mode, draEnabled, r.duration("VGPU_MODE_RETRY", Duration.ofSeconds(30)),
                DraPluginSettings.read(r));
        r.validate();
        return config;
    }

    /** The effective values for the start-up log (nothing here is secret). */
    public Map<String, Object> describe() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("node", nodeName);
        out.put("kubeletSocket", registerWithKubelet ? kubeletSocket : "(not registering)");
        out.put("pluginSocket", pluginSocket);
        out.put("deviceConfigFile", deviceConfigFile);
        out.put("nodeConfigFile", nodeConfigFile);
        out.put("hookPath", hookPath);
        out.put("hostRoot", hostRoot);
        out.put("deviceSource", SOURCE_FAKE.equals(deviceSource) ? "fake:" + fakeGpusFile : "nvml:" + nvmlLibrary);
        out.put("deviceListStrategies", deviceListStrategies.stream().map(DeviceListStrategy::wire).toList());
        out.put("deviceIdStrategy", deviceIdStrategy);
        out.put("xidChecks", xidPolicy.allDisabled() ? "disabled" : "enabled");
        out.put("registerInterval", registerInterval);
        out.put("mode", mode.wire() + " (unless the node label " + DraNames.MODE_LABEL + " says otherwise)");
        out.put("draEnabled", draEnabled);
        out.put("metricsPort", metricsPort);
        out.put("monitorEnabled", monitorEnabled);
        out.put("draPlugin", draPlugin.describe());
        if (monitorEnabled) {
            out.put("metricsBindAddress", metricsBindAddress);
            out.put("legacyMetrics", legacyMetrics);
            out.put("monitorScanInterval", monitorScanInterval);
            out.put("monitorResyncInterval", monitorResyncInterval);
        }
        return out;
    }
}
