package io.vgpu.loadtest.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The driver's command line: one cycle row alone (a profile of it), and the cycle rows' live pods per node. */
class BenchArgsTest {

    @Test
    void runsOnlyTheNamedCycleRows() {
        Benchmark.BenchArgs args = Benchmark.BenchArgs.parse(new String[] {"--rows", "cycle-r3-k1-d0,ceiling-cycle-k1"});

        assertThat(args.wantsRow("cycle-r3-k1-d0")).isTrue();
        assertThat(args.wantsRow("ceiling-cycle-k1")).isTrue();
        assertThat(args.wantsRow("cycle-r1-k1-d0")).isFalse();
        assertThat(Benchmark.BenchArgs.parse(new String[0]).wantsRow("cycle-r1-k1-d0")).isTrue();
    }

    @Test
    void keepsTenLivePodsPerNodeUnlessTold() {
        assertThat(Benchmark.BenchArgs.parse(new String[0]).livePodsPerNode()).isEqualTo(10);
        assertThat(Benchmark.BenchArgs.parse(new String[] {"--live-pods-per-node", "0"}).livePodsPerNode()).isZero();
    }
}
