package io.vgpu.deviceplugin.config;

import io.vgpu.deviceplugin.cdi.DriverLibraries;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DraPluginSettingsTest {

    @Test
    void defaultsAreTheKubeletsAndTheRuntimesPaths() {
        DraPluginSettings dra = DevicePluginConfig.fromEnv(Map.of("VGPU_NODE_NAME", "n1")).draPlugin();
        assertThat(dra.registrationSocket()).isEqualTo(Path.of("/var/lib/kubelet/plugins_registry/gpu.vgpu.io-reg.sock"));
        assertThat(dra.draSocket()).isEqualTo(Path.of("/var/lib/kubelet/plugins/gpu.vgpu.io/dra.sock"));
        assertThat(dra.checkpointFile()).isEqualTo(Path.of("/var/lib/kubelet/plugins/gpu.vgpu.io/checkpoint.json"));
        assertThat(dra.cdiDir()).isEqualTo(Path.of("/var/run/cdi"));
        assertThat(dra.staticCdiDirs()).containsExactly(Path.of("/etc/cdi"), Path.of("/var/run/cdi"));
        assertThat(dra.driverLibraries()).isEqualTo(DriverLibraries.Mode.AUTO);
    }

    @Test
    void everyDirectoryIsASettingSoTheAgentRunsOnALaptop() {
        Map<String, String> env = new HashMap<>(Map.of("VGPU_NODE_NAME", "n1",
                "VGPU_DRA_REGISTRY_DIR", "/tmp/l/registry", "VGPU_DRA_PLUGIN_DIR", "/tmp/l/plugin",
                "VGPU_DRA_STATE_DIR", "/tmp/l/state", "VGPU_DRA_CDI_DIR", "/tmp/l/cdi",
                "VGPU_DRA_STATIC_CDI_DIRS", "/tmp/l/etc-cdi", "VGPU_DRA_DRIVER_LIBRARIES", "Runtime"));
        DraPluginSettings dra = DevicePluginConfig.fromEnv(env).draPlugin();
        assertThat(dra.registrationSocket()).isEqualTo(Path.of("/tmp/l/registry/gpu.vgpu.io-reg.sock"));
        assertThat(dra.draSocket()).isEqualTo(Path.of("/tmp/l/plugin/dra.sock"));
        assertThat(dra.checkpointFile()).isEqualTo(Path.of("/tmp/l/state/checkpoint.json"));
        assertThat(dra.cdiDir()).isEqualTo(Path.of("/tmp/l/cdi"));
        assertThat(dra.staticCdiDirs()).isEqualTo(List.of(Path.of("/tmp/l/etc-cdi")));
        assertThat(dra.driverLibraries()).isEqualTo(DriverLibraries.Mode.RUNTIME);
    }

    @Test
    void badValuesStopTheStartWithEveryProblemNamed() {
        assertThatThrownBy(() -> DevicePluginConfig.fromEnv(Map.of("VGPU_NODE_NAME", "n1",
                "VGPU_DRA_DRIVER_LIBRARIES", "host", "VGPU_DRA_CDI_DIR", "cdi",
                "VGPU_DRA_REGISTRY_DIR", "/x", "VGPU_DRA_PLUGIN_DIR", "/x")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("VGPU_DRA_DRIVER_LIBRARIES=host is not auto, cdi or runtime")
                .hasMessageContaining("VGPU_DRA_CDI_DIR=cdi must be an absolute path")
                .hasMessageContaining("VGPU_DRA_PLUGIN_DIR must differ from VGPU_DRA_REGISTRY_DIR");
    }

    @Test
    void theLaptopScriptSetsOnlyKnownKeysAndKeepsEveryPathInItsDirectory() throws IOException {
        String script = Files.readString(Path.of("").toAbsolutePath().getParent().resolve("scripts/dra-laptop.sh"));
        Matcher keys = Pattern.compile("(VGPU_[A-Z_]+)=\"?([^\\s\"]*)").matcher(script);
        Map<String, String> env = new HashMap<>();
        while (keys.find()) {
            env.put(keys.group(1), keys.group(2).replace("$dir", "/tmp/laptop").replace("$node", "my-node"));
        }
        assertThat(env).containsKeys("VGPU_NODE_NAME", "VGPU_DRA_REGISTRY_DIR", "VGPU_DRA_PLUGIN_DIR", "VGPU_DRA_CDI_DIR",
                "VGPU_HOST_ROOT", "VGPU_KUBELET_DIR", "VGPU_FAKE_GPUS_FILE");
        DevicePluginConfig config = DevicePluginConfig.fromEnv(env);
        DraPluginSettings dra = config.draPlugin();
        for (Path p : List.of(dra.registryDir(), dra.pluginDir(), dra.stateDir(), dra.cdiDir(), config.hostRoot(),
                config.kubeletDir(), config.fakeGpusFile())) {
            assertThat(p.startsWith("/tmp/laptop")).as("%s under the laptop directory", p).isTrue();
        }
        assertThat(dra.staticCdiDirs()).allSatisfy(p -> assertThat(p.startsWith("/tmp/laptop")).as("%s", p).isTrue());
        assertThat(script).as("the monitor's containers directory, as the chart's init container makes it")
                .contains("mkdir -p \"$dir/host" + config.hookPath() + "/vgpu/containers\"");
    }
}
