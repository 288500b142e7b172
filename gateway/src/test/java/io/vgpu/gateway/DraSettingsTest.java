package io.vgpu.gateway;

import io.vgpu.gateway.config.ConfigurationException;
import io.vgpu.gateway.config.EnvReader;
import io.vgpu.gateway.core.dra.DraConfig;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DraSettingsTest {

    private static DraConfig read(Map<String, String> env) {
        EnvReader reader = new EnvReader(env, GatewayConfig.PREFIX);
        DraConfig config = DraSettings.read(reader);
        reader.finish();
        return config;
    }

    @Test
    void draIsOffByDefaultOnTheChartsDeviceClass() {
        assertThat(read(Map.of())).isEqualTo(new DraConfig("gpu.vgpu.io", false));
    }

    @Test
    void readsTheDefaultAndTheDeviceClass() {
        assertThat(read(Map.of("VGPU_DRA_DEFAULT", "true", "VGPU_DRA_DEVICE_CLASS", "vgpu")))
                .isEqualTo(new DraConfig("vgpu", true));
    }

    @Test
    void aBadDefaultStopsTheGatewayWithItsName() {
        assertThatThrownBy(() -> read(Map.of("VGPU_DRA_DEFAULT", "maybe")))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("VGPU_DRA_DEFAULT");
    }

    @Test
    void everyKeyIsDocumentedInTheReadme() throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"));
        List<String> missing = DraSettings.KEYS.stream().map(k -> k.name())
                .filter(name -> !readme.contains("`" + name + "`")).toList();

        assertThat(missing).isEmpty();
    }
}
