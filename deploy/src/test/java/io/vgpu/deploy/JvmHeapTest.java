package io.vgpu.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Memory is bounded by configuration (issue 10 item 6): both JVMs get their heap from the container's memory limit
 * ({@code -XX:MaxRAMPercentage}, or an explicit {@code -Xmx} from values) as the first JVM option, every container
 * has a memory limit, and a JVM started with the rendered {@code JDK_JAVA_OPTIONS} under that limit (standing in for
 * the cgroup by {@code -XX:MaxRAM}) sizes its heap accordingly.
 */
class JvmHeapTest {

    private static final Pattern MAX_HEAP = Pattern.compile("size_t MaxHeapSize\\s+=\\s+(\\d+)");

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, mode = EnumSource.Mode.EXCLUDE, names = "DEVICE_PLUGIN_ONLY")
    void gatewayHeapComesFromTheContainerLimit(ValueSet set) throws Exception {
        JsonNode gateway = GatewayEnvTest.gateway(Helm.template(set));
        String options = Pods.env(gateway).get("JDK_JAVA_OPTIONS");
        long limit = bytes(gateway.path("resources").path("limits").path("memory").asText());
        assertThat(limit).as("memory limit of the gateway container").isPositive();
        if (set == ValueSet.CUSTOM) {
            assertThat(options).startsWith("-Xmx1536m ").doesNotContain("MaxRAMPercentage");
            assertThat(maxHeap(options, limit)).isEqualTo(1536L << 20);
        } else {
            assertThat(options).startsWith("-XX:MaxRAMPercentage=70 ").doesNotContain("-Xmx");
            if (set == ValueSet.DEFAULT) {
                assertHeapIsSeventyPercentOf(maxHeap(options, limit), limit);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, names = {"DEFAULT", "DEVICE_PLUGIN_ONLY", "CUSTOM"})
    void devicePluginHeapComesFromTheContainerLimit(ValueSet set) throws Exception {
        JsonNode plugin = Pods.container(Helm.template(set).one("DaemonSet", Names.DEVICE_PLUGIN), "device-plugin");
        String options = Pods.env(plugin).get("JDK_JAVA_OPTIONS");
        long limit = bytes(plugin.path("resources").path("limits").path("memory").asText());
        assertThat(limit).as("memory limit of the device-plugin container").isPositive();
        assertThat(options).startsWith("-XX:MaxRAMPercentage=70 ");
        assertHeapIsSeventyPercentOf(maxHeap(options, limit), limit);
    }

    private static void assertHeapIsSeventyPercentOf(long heap, long limit) {
        // the JVM rounds the heap to its alignment (a few MiB at most)
        assertThat(heap).isCloseTo(limit * 70 / 100, within(8L << 20)).isLessThan(limit);
    }

    /** MaxHeapSize of a JVM started as the container starts it, with {@code limit} bytes of memory. */
    private static long maxHeap(String jdkJavaOptions, long limit) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder pb = new ProcessBuilder(java.toString(), "-XX:MaxRAM=" + limit, "-XX:+PrintFlagsFinal",
                "-version").redirectErrorStream(true);
        pb.environment().put("JDK_JAVA_OPTIONS", jdkJavaOptions);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("java with the rendered options:\n" + out).isZero();
        Matcher m = MAX_HEAP.matcher(out);
        assertThat(m.find()).as(out).isTrue();
        return Long.parseLong(m.group(1));
    }

    /** A Kubernetes memory quantity in bytes (the binary and decimal suffixes the chart uses). */
    static long bytes(String quantity) {
        for (var unit : List.of(List.of("Ki", 1L << 10), List.of("Mi", 1L << 20), List.of("Gi", 1L << 30),
                List.of("k", 1_000L), List.of("M", 1_000_000L), List.of("G", 1_000_000_000L))) {
            String suffix = (String) unit.get(0);
            if (quantity.endsWith(suffix)) {
                return Long.parseLong(quantity.substring(0, quantity.length() - suffix.length())) * (Long) unit.get(1);
            }
        }
        return quantity.isEmpty() ? 0 : Long.parseLong(quantity);
    }
}
