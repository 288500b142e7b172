package io.vgpu.gateway;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code serve}'s start-up line about its heap: the size against the container limit, a warning when unset. */
class JvmHeapTest {

    private static final long MIB = 1024 * 1024;

    @Test
    void namesTheHeapAgainstTheContainerLimitWhenConfigured() {
        JvmHeap.Line line = JvmHeap.describe(1434 * MIB, 2048 * MIB,
                List.of("-XX:MaxRAMPercentage=70", "-XX:+ExitOnOutOfMemoryError"));
        assertThat(line.warning()).isFalse();
        assertThat(line.text()).isEqualTo("JVM heap: at most 1434 MiB, 70 % of the 2048 MiB the JVM sees (the"
                + " container's memory limit, or the host's memory)");
    }

    @Test
    void warnsWhenNothingSizedTheHeap() {
        // the JVM's own default: a quarter of the limit, whatever the cluster needs
        JvmHeap.Line line = JvmHeap.describe(512 * MIB, 2048 * MIB, List.of("-Dfoo=bar"));
        assertThat(line.warning()).isTrue();
        assertThat(line.text()).contains("25 % of the 2048 MiB", "no heap size was configured",
                "docs/operations.md#sizing");
    }

    @Test
    void anExplicitMaximumCountsAsConfigured() {
        assertThat(JvmHeap.configured(List.of("-Xmx1536m"))).isTrue();
        assertThat(JvmHeap.configured(List.of("-XX:MaxHeapSize=1g"))).isTrue();
        assertThat(JvmHeap.configured(List.of("-Xms1g", "-XX:+UseG1GC"))).isFalse();
    }
}
