package io.vgpu.deploy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Shipped jars carry no test doubles (issue 11 item 5): the runnable jar each image copies, as {@code package} built
 * it, holds no simulator, no mock API server and none of what the mock server brings (Bouncy Castle), and no class
 * of a test source set. The simulator has its own jar (module {@code gateway/simulate}), which no image copies.
 */
class ShippedJarContentIT {

    /** Class-path prefixes that must never ship, and why. */
    private static final List<String[]> FORBIDDEN = List.of(
            new String[] {"io/vgpu/simulate/", "the simulator (module gateway/simulate)"},
            new String[] {"io/vgpu/gateway/simulate/", "the simulator's former package"},
            new String[] {"io/fabric8/kubernetes/client/server/mock/", "fabric8's mock API server"},
            new String[] {"io/fabric8/mockwebserver/", "fabric8's mock web server"},
            new String[] {"org/bouncycastle/", "Bouncy Castle (the mock server loads it)"},
            new String[] {"io/vgpu/testsupport/", "test-support"});

    static Stream<String> images() {
        return Stream.of("gateway", "device-plugin");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("images")
    void theImagesJarHoldsNoSimulatorMockServerOrTestClass(String image) throws IOException {
        String jar = ImageDefinitionsIT.dockerfile(image).copies().stream()
                .flatMap(c -> c.sources().stream()).filter(s -> s.endsWith(".jar")).findFirst().orElseThrow();
        List<String> entries;
        try (JarFile file = new JarFile(Repo.built(jar).toFile())) {
            entries = Collections.list(file.entries()).stream().map(JarEntry::getName).toList();
        }
        // a complete runnable jar, so that the absences below mean something
        assertThat(entries).as(jar).contains("io/fabric8/kubernetes/client/KubernetesClient.class");
        assertThat(entries.stream().filter(e -> e.startsWith("io/vgpu/") && e.endsWith(".class")).count())
                .as("%s: the app's own classes", jar).isGreaterThan(100);

        for (String[] forbidden : FORBIDDEN) {
            assertThat(entries.stream().filter(e -> e.startsWith(forbidden[0])).limit(3))
                    .as("%s must not ship %s (%s)", jar, forbidden[1], forbidden[0]).isEmpty();
        }
        assertThat(entries.stream().filter(ShippedJarContentIT::isTestClass).limit(3))
                .as("%s must not ship test classes (a testing package or a *Test class)", jar).isEmpty();
    }

    private static boolean isTestClass(String entry) {
        return entry.startsWith("io/vgpu/") && entry.endsWith(".class")
                && (entry.contains("/testing/") || entry.matches(".*/[^/$]+Tests?(\\$.*)?\\.class"));
    }
}
