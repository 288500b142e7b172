package io.vgpu.gateway.config;

import io.vgpu.gateway.core.request.NvidiaConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DeviceConfigFileTest {

    @TempDir
    Path dir;

    /** The shape of HAMi's chart ConfigMap (charts/hami/templates/scheduler/device-configmap.yaml). */
    static final String HAMI_CHART_FILE = """
            nvidia:
              resourceCountName: nvidia.com/gpu
              resourceMemoryName: nvidia.com/gpumem
              resourceMemoryPercentageName: nvidia.com/gpumem-percentage
              resourceCoreName: nvidia.com/gpucores
              resourcePriorityName: nvidia.com/priority
              overwriteEnv: true
              defaultMemory: 2048
              defaultCores: 10
              defaultGPUNum: 2
              memoryFactor: 4
              deviceSplitCount: 10
              deviceMemoryScaling: 1
              deviceCoreScaling: 1
              gpuCorePolicy: force
              runtimeClassName: nvidia
              libCudaLogLevel: 1
              migProfileAllowlist: {}
              knownMigGeometries:
                - models: [ "A30" ]
                  allowedGeometries:
                    - - name: 1g.6gb
                        memory: 6144
                        count: 4
            cambricon:
              resourceCountName: cambricon.com/vmlu
            """;

    Path write(String yaml) throws IOException {
        Path file = dir.resolve("device-config.yaml");
        Files.writeString(file, yaml);
        return file;
    }

    @Test
    void readsTheNvidiaSectionAsIsIgnoringKeysItDoesNotUse() throws IOException {
        assertThat(DeviceConfigFile.read(write(HAMI_CHART_FILE))).isEqualTo(new NvidiaConfig("nvidia.com/gpu",
                "nvidia.com/gpumem", "nvidia.com/gpumem-percentage", "nvidia.com/gpucores", "nvidia.com/priority",
                true, 2048, 10, 2, 4, "force", "nvidia"));
    }

    @Test
    void absentKeysTakeTheChartDefaults() throws IOException {
        NvidiaConfig partial = DeviceConfigFile.read(write("nvidia:\n  resourceCountName: example.com/gpu\n"));
        NvidiaConfig d = NvidiaConfig.defaults();
        assertThat(partial).isEqualTo(new NvidiaConfig("example.com/gpu", d.resourceMemoryName(),
                d.resourceMemoryPercentageName(), d.resourceCoreName(), d.resourcePriorityName(), d.overwriteEnv(),
                d.defaultMemory(), d.defaultCores(), d.defaultGPUNum(), d.memoryFactor(), d.gpuCorePolicy(),
                d.runtimeClassName()));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "no nvidia section          | 'cambricon:\n  resourceCountName: x\n'  | has no nvidia: section",
        "empty file                 | ''                                        | has no nvidia: section",
        "nvidia is a list           | 'nvidia: [1, 2]\n'                        | has no nvidia: section",
        "broken YAML                | 'nvidia: {resourceCountName: [\n'        | not valid YAML",
        "integer as text            | 'nvidia:\n  defaultMemory: lots\n'        | nvidia.defaultMemory: expected an integer",
        "fractional integer         | 'nvidia:\n  memoryFactor: 1.5\n'          | nvidia.memoryFactor: expected an integer",
        "boolean as text            | 'nvidia:\n  overwriteEnv: maybe\n'        | nvidia.overwriteEnv: expected true or false",
        "name as a map              | 'nvidia:\n  resourceCountName: {a: b}\n'  | nvidia.resourceCountName: expected a string"})
    void rejectsFilesItCannotUse(String name, String yaml, String message) throws IOException {
        Path file = write(yaml.replace("\\n", "\n"));
        assertThatThrownBy(() -> DeviceConfigFile.read(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }
}
