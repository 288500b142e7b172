package io.vgpu.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.gateway.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The container images cannot be built here (no Docker engine), so their definitions are checked
 * statically against the Maven build's output: every file they copy exists, the entrypoint starts the
 * jar's real main class, and the chart runs them the way they are built.
 */
class ImageDefinitionsIT {

    /** image directory, its main class, the chart's image repository value. */
    static Stream<Arguments> images() {
        return Stream.of(
                Arguments.of("gateway", "io.vgpu.gateway.Main", "vgpu-gateway"),
                Arguments.of("device-plugin", "io.vgpu.deviceplugin.Main", "vgpu-device-plugin"));
    }

    static Dockerfile dockerfile(String image) {
        return Dockerfile.read(Repo.deploy().resolve("images").resolve(image).resolve("Dockerfile"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("images")
    void everyCopiedFileExistsAfterPackage(String image, String mainClass, String repository) throws IOException {
        Dockerfile d = dockerfile(image);
        assertThat(d.copies()).isNotEmpty();
        List<String> allowed = Files.readAllLines(Repo.deploy().resolve("images").resolve(image).resolve("Dockerfile.dockerignore"))
                .stream().filter(l -> l.startsWith("!")).map(l -> l.substring(1)).toList();
        for (Dockerfile.Copy copy : d.copies()) {
            for (String source : copy.sources()) {
                assertThat(Repo.built(source)).as(source).isRegularFile();
                assertThat(allowed).as("the build context lets " + source + " through").contains(source);
            }
            assertThat(copy.destination()).startsWith("/");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("images")
    void entrypointStartsTheJarsMainClass(String image, String mainClass, String repository) throws IOException {
        Dockerfile d = dockerfile(image);
        List<String> entrypoint = d.entrypoint();
        assertThat(entrypoint).hasSize(4);
        assertThat(entrypoint.get(0)).isEqualTo("java");
        assertThat(entrypoint.get(1)).isEqualTo("-cp");
        String jar = d.copyTo(entrypoint.get(2)).sources().get(0);
        assertThat(entrypoint.get(3)).isEqualTo(mainClass);
        try (JarFile file = new JarFile(Repo.built(jar).toFile())) {
            assertThat(file.getManifest().getMainAttributes().getValue("Main-Class")).isEqualTo(mainClass);
            assertThat(file.getEntry(mainClass.replace('.', '/') + ".class")).as(mainClass + " in " + jar).isNotNull();
        }
        assertThat(d.from()).startsWith("eclipse-temurin:17-jre");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("images")
    void chartRunsTheImageAsBuilt(String image, String mainClass, String repository) {
        Rendered r = Helm.template(ValueSet.DEFAULT);
        Dockerfile d = dockerfile(image);
        JsonNode workload = image.equals("gateway") ? r.one("StatefulSet", Names.SCHEDULER) : r.one("DaemonSet", Names.DEVICE_PLUGIN);
        JsonNode container = Pods.container(workload, image);
        assertThat(container.path("image").asText()).contains("/" + repository + ":").doesNotEndWith(":");
        assertThat(container.has("command")).as("the image's entrypoint is used").isFalse();
        if (image.equals("gateway")) {
            String subcommand = container.path("args").get(0).asText();
            assertThat(d.cmd()).containsExactly(subcommand);
            assertThat(new CommandLine(new Main()).getSubcommands()).containsKey(subcommand);
            int uid = Pods.podSpec(workload).path("securityContext").path("runAsUser").asInt();
            assertThat(d.user()).isEqualTo(uid + ":" + uid);
        } else {
            assertThat(d.user()).startsWith("0");
        }
    }

    @Test
    void devicePluginsNativeFilesNeedNoNewerGlibcThanTheBaseImage() throws IOException {
        Dockerfile d = dockerfile("device-plugin");
        List<Dockerfile.Copy> natives = d.copies().stream()
                .filter(c -> !c.sources().get(0).endsWith(".jar")).toList();
        assertThat(natives).as("JNI library and gpu-check").hasSize(2);
        String baseGlibc = d.labels().get("io.vgpu.base-glibc");
        assertThat(baseGlibc).as("label io.vgpu.base-glibc").isNotNull();
        Pattern glibc = Pattern.compile("GLIBC_(\\d+)\\.(\\d+)");
        for (Dockerfile.Copy copy : natives) {
            String text = new String(Files.readAllBytes(Repo.built(copy.sources().get(0))), StandardCharsets.ISO_8859_1);
            Matcher m = glibc.matcher(text);
            List<String> needed = new ArrayList<>();
            while (m.find()) {
                needed.add(m.group());
                assertThat(compare(m.group(1) + "." + m.group(2), baseGlibc)).as(copy.sources().get(0) + " needs " + m.group())
                        .isLessThanOrEqualTo(0);
            }
            assertThat(needed).as(copy.sources().get(0) + " links glibc").isNotEmpty();
        }
        // the JNI library is loaded from the copied file, not extracted into the host's /tmp
        String lib = d.env().get("VGPU_HAMICORE_LIB");
        assertThat(d.copyTo(lib).sources().get(0)).endsWith("libvgpuhamicore.so");
    }

    private static int compare(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        int major = Integer.compare(Integer.parseInt(x[0]), Integer.parseInt(y[0]));
        return major != 0 ? major : Integer.compare(Integer.parseInt(x[1]), Integer.parseInt(y[1]));
    }
}
