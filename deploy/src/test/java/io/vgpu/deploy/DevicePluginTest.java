package io.vgpu.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.deviceplugin.config.ConfigurationException;
import io.vgpu.deviceplugin.config.DeviceConfigFile;
import io.vgpu.deviceplugin.config.DevicePluginConfig;
import io.vgpu.deviceplugin.config.NodeConfigFile;
import io.vgpu.deviceplugin.config.NodeFeatures;
import io.vgpu.deviceplugin.core.mig.MigStrategy;
import io.vgpu.deviceplugin.core.register.NvidiaSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The device-plugin DaemonSet: HAMi's host paths and mounts (container path = host path), the init
 * container that brings HAMi-core onto the node, the device and per-node config files, the monitor port,
 * and an environment the plugin's own reader accepts.
 */
class DevicePluginTest {

    static JsonNode ds(ValueSet set) {
        return Helm.template(set).one("DaemonSet", Names.DEVICE_PLUGIN);
    }

    static String hookPath(ValueSet set) {
        return set == ValueSet.CUSTOM ? "/opt/hami" : "/usr/local";
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ValueSet.class)
    void mountsHamisHostPathsAtTheSamePaths(ValueSet set) {
        JsonNode ds = ds(set);
        JsonNode plugin = Pods.container(ds, "device-plugin");
        assertThat(hostPath(ds, plugin, "/var/lib/kubelet/device-plugins")).isEqualTo("/var/lib/kubelet/device-plugins");
        String lib = hookPath(set) + "/vgpu";
        assertThat(hostPath(ds, plugin, lib)).as("HAMi-core directory: container path = host path").isEqualTo(lib);
        assertThat(hostPath(ds, plugin, "/tmp")).as("/tmp/vgpulock lives in the host's /tmp").isEqualTo("/tmp");
        JsonNode pod = Pods.podSpec(ds);
        assertThat(pod.path("hostPID").asBoolean()).isTrue();
        assertThat(pod.path("priorityClassName").asText()).isEqualTo("system-node-critical");
        assertThat(pod.path("enableServiceLinks").asBoolean(true)).isFalse();
        assertThat(plugin.path("securityContext").path("privileged").asBoolean()).isTrue();
        String options = Pods.env(plugin).get("JDK_JAVA_OPTIONS");
        assertThat(options).contains("-Djava.util.concurrent.ForkJoinPool.common.parallelism=");
        String scratch = options.replaceAll(".*-Djava\\.io\\.tmpdir=(\\S+).*", "$1");
        assertThat(Pods.volumeAt(ds, plugin, scratch).has("emptyDir")).as("JVM scratch space off the host's /tmp").isTrue();
        assertThat(ds.path("spec").path("template").path("metadata").path("labels").path("hami.io/webhook").asText())
                .isEqualTo("ignore");
        Map<String, String> selector = new LinkedHashMap<>();
        pod.path("nodeSelector").fields().forEachRemaining(e -> selector.put(e.getKey(), e.getValue().asText()));
        assertThat(selector).isEqualTo(set == ValueSet.CUSTOM ? Map.of("nvidia.com/gpu.present", "true") : Map.of("gpu", "on"));
        if (set == ValueSet.CUSTOM) {
            assertThat(pod.path("runtimeClassName").asText()).isEqualTo("nvidia");
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ValueSet.class)
    void pluginAcceptsItsEnvironmentAndFiles(ValueSet set, @TempDir Path dir) {
        Rendered r = Helm.template(set);
        JsonNode ds = r.one("DaemonSet", Names.DEVICE_PLUGIN);
        JsonNode plugin = Pods.container(ds, "device-plugin");
        MountedFiles files = MountedFiles.of(r, ds, plugin, dir);
        Map<String, String> env = new LinkedHashMap<>(image().env());
        env.putAll(Pods.env(plugin));
        env.replaceAll((k, v) -> v.contains("$") ? "" : v); // ${PATH}-style image values
        DevicePluginConfig config;
        try {
            config = DevicePluginConfig.fromEnv(files.rewrite(env));
        } catch (ConfigurationException e) {
            config = fail("the device plugin refuses the environment rendered for " + set + ":\n" + e.getMessage());
        }
        assertThat(config.nodeName()).isEqualTo(Pods.FROM_POD);
        assertThat(config.hookPath()).isEqualTo(hookPath(set));
        assertThat(config.metricsPort()).isEqualTo(9394);
        assertThat(SchedulerWorkloadTest.namedPort(plugin, "metrics").path("containerPort").asInt()).isEqualTo(9394);
        assertThat(config.kubeletDir()).isEqualTo(files.local("/var/lib/kubelet/device-plugins"));
        // the files it reads are mounted, and its own readers accept them
        Path deviceConfig = files.local(Pods.env(plugin).get("VGPU_DEVICE_CONFIG_FILE"));
        Path nodeConfig = files.local(Pods.env(plugin).get("VGPU_NODE_CONFIG_FILE"));
        assertThat(deviceConfig).isRegularFile();
        assertThat(nodeConfig).isRegularFile();
        NvidiaSettings nvidia = DeviceConfigFile.read(deviceConfig);
        assertThat(NodeConfigFile.read(nodeConfig)).isPresent();
        NodeFeatures features;
        try {
            features = NodeFeatures.fromEnv(files.rewrite(env));
        } catch (ConfigurationException e) {
            features = fail("the device plugin refuses the feature settings rendered for " + set + ":\n" + e.getMessage());
        }
        if (set == ValueSet.CUSTOM) {
            assertThat(features.migStrategy()).isEqualTo(MigStrategy.MIXED);
            assertThat(features.topologyScore()).isTrue();
            assertThat(features.recovery().enabled()).isTrue();
            assertThat(features.recovery().quietPeriod()).isEqualTo(Duration.ofMinutes(2));
            assertThat(features.recovery().fatal()).containsExactly(48L, 79L);
            assertThat(DeviceConfigFile.readMigAllowlist(deviceConfig).profilesFor("NVIDIA A100-SXM4-40GB"))
                    .containsExactly("1g.5gb", "2g.10gb");
            assertThat(nvidia.deviceSplitCount()).isEqualTo(4);
            assertThat(nvidia.deviceMemoryScaling()).isEqualTo(1.5);
            assertThat(nvidia.deviceCoreScaling()).isEqualTo(2.0);
            assertThat(nvidia.enableNumaTopology()).isTrue();
            assertThat(nvidia.disableCoreLimit()).isTrue();
            assertThat(nvidia.libCudaLogLevel()).isEqualTo("3");
            assertThat(nvidia.resourceCountName()).isEqualTo("example.com/vgpu");
            assertThat(config.gdsEnabled()).isTrue();
            assertThat(config.deviceListStrategies()).hasSize(2);
        } else {
            assertThat(features).isEqualTo(NodeFeatures.defaults());
            assertThat(nvidia.deviceSplitCount()).isEqualTo(10);
            assertThat(nvidia.resourceCountName()).isEqualTo("nvidia.com/gpu");
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, names = {"DEFAULT", "CUSTOM"})
    void hamiCoreComesFromTheConfiguredImage(ValueSet set) {
        JsonNode ds = ds(set);
        JsonNode init = Pods.initContainer(ds, "hami-core");
        String registry = set == ValueSet.CUSTOM ? "registry.example.com" : "docker.io";
        assertThat(init.path("image").asText()).isEqualTo(registry + "/projecthami/hami:v2.10.0");
        String lib = hookPath(set) + "/vgpu";
        assertThat(hostPath(ds, init, lib)).isEqualTo(lib);
        assertThat(hostPath(ds, init, "/tmp")).isEqualTo("/tmp");
    }

    /** Runs the init container's script against a fake HAMi image and node. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, names = {"DEFAULT", "CUSTOM"})
    void initContainerInstallsLibvgpuAndPreloadAtomically(ValueSet set, @TempDir Path dir) throws Exception {
        JsonNode init = Pods.initContainer(ds(set), "hami-core");
        assertThat(init.path("command").get(0).asText()).isEqualTo("/bin/sh");
        String script = init.path("args").get(0).asText();
        String lib = hookPath(set) + "/vgpu";
        String version = set == ValueSet.CUSTOM ? "v2.10.1" : "v2.10.0";
        Path src = Files.createDirectories(dir.resolve("image/k8s-vgpu/lib/nvidia"));
        Path dst = dir.resolve("host" + lib);
        Path tmp = Files.createDirectories(dir.resolve("host/tmp"));
        Files.writeString(src.resolve("libvgpu.so"), "stale unversioned build");
        Files.writeString(src.resolve("libvgpu.so." + version), "hami-core " + version);
        Files.writeString(src.resolve("vgpuvalidator"), "validator");
        String sandboxed = script.replace("\"/k8s-vgpu/lib/nvidia\"", "\"" + src + "\"")
                .replace("\"" + lib + "\"", "\"" + dst + "\"")
                .replace("/tmp/vgpulock", tmp.resolve("vgpulock").toString());
        assertThat(sandboxed).as("the script's paths were found").doesNotContain("\"/k8s-vgpu/lib/nvidia\"").doesNotContain("\"" + lib + "\"");

        String first = sh(sandboxed);
        assertThat(dst.resolve("libvgpu.so")).hasContent("hami-core " + version);
        assertThat(dst.resolve("libvgpu.so." + version)).hasContent("hami-core " + version);
        assertThat(dst.resolve("vgpuvalidator")).hasContent("validator");
        assertThat(dst.resolve("ld.so.preload")).hasContent(dst + "/libvgpu.so");
        assertThat(dst.resolve("containers")).isDirectory();
        assertThat(tmp.resolve("vgpulock")).isDirectory();
        assertThat(first).contains("installed");

        String second = sh(sandboxed);
        assertThat(second).doesNotContain("installed").contains("unchanged: " + dst + "/libvgpu.so");
        try (var files = Files.list(dst)) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("."));
        }
        // the preload names the library where containers see it (= the host path)
        assertThat(script).contains("printf '%s\\n' \"$dst/libvgpu.so\"");
    }

    @Test
    void initContainerFailsWithoutAHamiCoreLibrary(@TempDir Path dir) throws Exception {
        String script = Pods.initContainer(ds(ValueSet.DEFAULT), "hami-core").path("args").get(0).asText();
        Path src = Files.createDirectories(dir.resolve("src"));
        String sandboxed = script.replace("\"/k8s-vgpu/lib/nvidia\"", "\"" + src + "\"")
                .replace("\"/usr/local/vgpu\"", "\"" + dir.resolve("dst") + "\"")
                .replace("/tmp/vgpulock", dir.resolve("lock").toString());
        Process p = new ProcessBuilder("/bin/sh", "-c", sandboxed).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isNotZero();
        assertThat(out).contains("no HAMi-core library");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ValueSet.class)
    void monitorServiceTargetsPort9394(ValueSet set) {
        Rendered r = Helm.template(set);
        JsonNode svc = r.one("Service", Names.DEVICE_PLUGIN + "-monitor").path("spec");
        assertThat(Pods.selects(svc.path("selector"),
                ds(set).path("spec").path("template").path("metadata").path("labels"))).isTrue();
        assertThat(svc.path("ports").get(0).path("targetPort").asText()).isEqualTo("metrics");
    }

    @Test
    void deviceOnlyInstallStillShipsTheDeviceConfig() {
        Rendered r = Helm.template(ValueSet.DEVICE_PLUGIN_ONLY);
        assertThat(r.all("StatefulSet")).isEmpty();
        assertThat(r.all("NetworkPolicy")).isEmpty();
        assertThat(r.find("ConfigMap", Names.DEVICE_CONFIG)).isPresent();
        assertThat(r.find("DaemonSet", Names.DEVICE_PLUGIN)).isPresent();
    }

    @Test
    void anExternalDeviceConfigIsUsedAsIs() {
        Helm.Result result = Helm.templateRaw(List.of("--set", "device-config.externalConfigName=hami-scheduler-device"));
        assertThat(result.exitCode()).as(result.output()).isZero();
        Rendered r = new Rendered(Helm.parse(result.output()));
        assertThat(r.find("ConfigMap", Names.DEVICE_CONFIG)).isEmpty();
        JsonNode ds = r.one("DaemonSet", Names.DEVICE_PLUGIN);
        assertThat(Pods.volume(ds, "device-config").path("configMap").path("name").asText()).isEqualTo("hami-scheduler-device");
        JsonNode sts = r.one("StatefulSet", Names.SCHEDULER);
        assertThat(Pods.volume(sts, "device-config").path("configMap").path("name").asText()).isEqualTo("hami-scheduler-device");
    }

    @Test
    void theTopologyAwarePolicyTurnsOnThePairScores() {
        Helm.Result result = Helm.templateRaw(List.of("--set", "scheduler.defaultSchedulerPolicy.gpuSchedulerPolicy=topology-aware"));
        assertThat(result.exitCode()).as(result.output()).isZero();
        JsonNode plugin = Pods.container(new Rendered(Helm.parse(result.output())).one("DaemonSet", Names.DEVICE_PLUGIN),
                "device-plugin");
        assertThat(NodeFeatures.fromEnv(Pods.env(plugin)).topologyScore()).isTrue();
    }

    static Dockerfile image() {
        return Dockerfile.read(Repo.deploy().resolve("images/device-plugin/Dockerfile"));
    }

    private static String hostPath(JsonNode ds, JsonNode container, String mountPath) {
        return Pods.volumeAt(ds, container, mountPath).path("hostPath").path("path").asText();
    }

    private static String sh(String script) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("/bin/sh", "-c", script).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }
}
