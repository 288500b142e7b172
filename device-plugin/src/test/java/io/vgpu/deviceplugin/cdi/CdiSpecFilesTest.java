package io.vgpu.deviceplugin.cdi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CdiSpecFilesTest {

    @TempDir
    Path dir;

    @Test
    void writesJsonThatReadsBackAndRemovesIt() throws IOException {
        CdiSpecFiles files = new CdiSpecFiles(dir.resolve("cdi"));
        CdiSpec spec = new CdiSpec("k8s.gpu.vgpu.io/claim", List.of(new CdiDevice("6f1e-gpu-gpu-0", ContainerEdits.builder()
                .env("NVIDIA_VISIBLE_DEVICES", "GPU-a").deviceNode(DeviceNode.of("/dev/nvidia0"))
                .mount(Mount.bind("/usr/local/vgpu/libvgpu.so", "/usr/local/vgpu/libvgpu.so", true)).build())),
                ContainerEdits.builder().mount(Mount.bind("/tmp/vgpulock", "/tmp/vgpulock", false))
                        .hook(Hook.of("createContainer", "/usr/bin/nvidia-cdi-hook", List.of("nvidia-cdi-hook", "update-ldcache")))
                        .build());
        Path file = files.write("k8s.gpu.vgpu.io-claim_6f1e.json", spec);

        assertThat(file).isEqualTo(dir.resolve("cdi/k8s.gpu.vgpu.io-claim_6f1e.json"));
        String json = Files.readString(file);
        assertThat(json).startsWith("{\n  \"cdiVersion\" : \"0.5.0\",\n  \"kind\" : \"k8s.gpu.vgpu.io/claim\"")
                .contains("\"options\" : [ \"ro\", \"nosuid\", \"nodev\", \"bind\" ]")
                .doesNotContain("annotations", "\"hostPath\" : null", "\"type\"", "\"hooks\" : [ ]");
        assertThat(files.read("k8s.gpu.vgpu.io-claim_6f1e.json")).contains(spec);
        assertThat(files.remove("k8s.gpu.vgpu.io-claim_6f1e.json")).isTrue();
        assertThat(files.remove("k8s.gpu.vgpu.io-claim_6f1e.json")).isFalse();
        assertThat(files.read("k8s.gpu.vgpu.io-claim_6f1e.json")).isEmpty();
        assertThatThrownBy(() -> files.path("spec.json.tmp")).hasMessageContaining("*.json or *.yaml");
    }

    @Test
    void aReaderNeverSeesAPartialSpecNorATemporaryFileWithASpecName() throws Exception {
        CdiSpecFiles files = new CdiSpecFiles(dir);
        List<CdiDevice> many = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            many.add(new CdiDevice("d" + i, ContainerEdits.builder().env("VALUE_" + i, "x".repeat(200)).build()));
        }
        CdiSpec big = new CdiSpec("v.com/c", many, ContainerEdits.NONE);
        CdiSpec small = new CdiSpec("v.com/c", List.of(new CdiDevice("d0", ContainerEdits.NONE)), ContainerEdits.NONE);
        files.write("v.com-c_x.json", small);
        AtomicBoolean done = new AtomicBoolean();
        List<String> seen = new ArrayList<>();
        Thread reader = new Thread(() -> {
            while (!done.get()) {
                try (Stream<Path> listing = Files.list(dir)) {
                    listing.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json") || n.endsWith(".yaml"))
                            .filter(n -> !n.equals("v.com-c_x.json")).forEach(seen::add);
                    int devices = files.read("v.com-c_x.json").orElseThrow().devices().size();
                    if (devices != 1 && devices != 200) {
                        seen.add("partial: " + devices);
                    }
                } catch (IOException | RuntimeException e) {
                    seen.add("failed: " + e);
                }
            }
        });
        reader.start();
        for (int i = 0; i < 100; i++) {
            files.write("v.com-c_x.json", i % 2 == 0 ? big : small);
        }
        done.set(true);
        reader.join();
        assertThat(seen).isEmpty();
        try (Stream<Path> left = Files.list(dir)) {
            assertThat(left).extracting(p -> p.getFileName().toString()).containsExactly("v.com-c_x.json");
        }
    }

    @Test
    void removeClearsTemporaryFilesACrashLeftAndScanReportsUnreadableFiles() throws IOException {
        CdiSpecFiles files = new CdiSpecFiles(dir);
        Files.writeString(dir.resolve(".v.com-c_x.json.1234.tmp"), "{\"cdiVer");
        Files.writeString(dir.resolve("v.com-c_x.json"), "{}");
        Files.writeString(dir.resolve("nvidia.yaml"), """
                cdiVersion: 0.5.0
                kind: nvidia.com/gpu
                devices:
                - name: "0"
                  containerEdits:
                    deviceNodes:
                    - path: /dev/nvidia0
                containerEdits:
                  deviceNodes:
                  - path: /dev/nvidiactl
                  intelRdt: {}
                """);
        List<CdiSpecFiles.Found> found = CdiSpecFiles.scan(List.of(dir.resolve("missing"), dir));
        assertThat(found).extracting(f -> f.file().getFileName().toString()).containsExactly("nvidia.yaml", "v.com-c_x.json");
        assertThat(found.get(0).spec()).map(CdiSpec::kind).contains("nvidia.com/gpu");
        assertThat(found.get(0).spec().orElseThrow().devices().get(0).containerEdits().deviceNodes())
                .containsExactly(DeviceNode.of("/dev/nvidia0"));
        assertThat(found.get(1).spec()).isEqualTo(Optional.empty());
        assertThat(found.get(1).error()).contains("CDI kind must be");

        files.remove("v.com-c_x.json");
        try (Stream<Path> left = Files.list(dir)) {
            assertThat(left).extracting(p -> p.getFileName().toString()).containsExactly("nvidia.yaml");
        }
    }
}
