package io.vgpu.loadtest.bench;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** CPU time from recorded {@code /proc/<pid>/stat} lines, and the per-decision arithmetic. */
class ProcCpuTest {

    /** A JVM's line (recorded on Linux 6.x): utime 1523, stime 211. */
    private static final String JAVA = "48213 (java) S 48170 48170 3101 0 -1 1077936384 98213 0 12 0 1523 211 0 0 20 0 "
            + "41 0 1234567 5123456789 61234 18446744073709551615 1 1 0 0 0 0 0 4096 16796879 0 0 0 17 1 0 0 0 0 0";
    /** A command name with a space and a parenthesis: the fields are counted from the last ')'. */
    private static final String ODD_NAME = "77 (my (odd) name) R 1 77 77 0 -1 4194560 10 0 0 0 42 8 0 0 20 0 1 0 99 "
            + "1000 10 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0";

    @Test
    void sumsUserAndSystemTicks() {
        assertThat(ProcCpu.ticks(JAVA)).isEqualTo(1523 + 211);
        assertThat(ProcCpu.ticks(ODD_NAME)).isEqualTo(42 + 8);
    }

    @Test
    void refusesWhatIsNotAStatLine() {
        assertThatThrownBy(() -> ProcCpu.ticks("cpu  123 0 456")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProcCpu.ticks("1 (java) S 1 2 3")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void millisecondsPerDecisionFromTwoReadings() {
        // 250 ticks = 2.5 s of CPU over 5,000 decisions = 0.5 ms each
        assertThat(ProcCpu.millisPerDecision(1_000, 1_250, 5_000)).isEqualTo(0.5);
        assertThat(ProcCpu.millisPerDecision(1_000, 1_000, 10)).isZero();
    }

    @Test
    void eachProcessesShareInOrderWithNoneForAMissingReading() {
        // 3 processes, 1,000 decisions: 150 ticks = 1.5 ms each; one gone at the end; one restarted (went back)
        List<OptionalLong> before = List.of(OptionalLong.of(100), OptionalLong.of(200), OptionalLong.of(300),
                OptionalLong.of(400));
        List<OptionalLong> after = List.of(OptionalLong.of(250), OptionalLong.of(210), OptionalLong.empty(),
                OptionalLong.of(5));
        assertThat(ProcCpu.millisPerDecisionEach(before, after, 1_000)).containsExactly(1.5, 0.1, null, null);
        assertThat(ProcCpu.millisPerDecisionEach(List.of(), List.of(OptionalLong.of(1)), 1_000)).containsExactly(
                (Double) null);
    }

    @Test
    void noFigureWithoutDecisionsOrWhenTheCounterWentBack() {
        assertThat(ProcCpu.millisPerDecision(1_000, 1_250, 0)).isNaN();
        assertThat(ProcCpu.millisPerDecision(1_250, 1_000, 10)).isNaN();
    }

    @Test
    void tellsTheJitCompilerThreadsByTheirCutName() {
        assertThat(ProcCpu.jitThread("48230 (C2 CompilerThre) S 48170 " + JAVA.substring(JAVA.indexOf(") S ") + 4)))
                .isTrue();
        assertThat(ProcCpu.jitThread("48231 (C1 CompilerThre) S 1 2 3")).isTrue();
        assertThat(ProcCpu.jitThread(JAVA)).isFalse();
        assertThat(ProcCpu.jitThread("48232 (vert.x-eventloo) S 1 2 3")).isFalse();
        assertThat(ProcCpu.jitThread("no name")).isFalse();
    }

    @Test
    void readsThisProcessesJitThreads() {
        // this JVM compiles (the test runs with the JIT on): its compiler threads are found, and count no more than all
        long pid = ProcessHandle.current().pid();
        assertThat(ProcCpu.readJit(pid)).isPresent();
        assertThat(ProcCpu.readJit(pid).getAsLong()).isLessThanOrEqualTo(ProcCpu.read(pid).getAsLong());
        assertThat(ProcCpu.readAllJit(java.util.List.of(pid, Long.MAX_VALUE))).isEmpty();
    }

    @Test
    void readsThisProcess() {
        assertThat(ProcCpu.read(ProcessHandle.current().pid())).isPresent();
        assertThat(ProcCpu.readAll(java.util.List.of(ProcessHandle.current().pid(), Long.MAX_VALUE))).isEmpty();
    }
}
