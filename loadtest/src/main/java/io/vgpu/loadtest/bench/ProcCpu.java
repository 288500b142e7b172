package io.vgpu.loadtest.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.LongFunction;

/**
 * CPU time of a process as the OS counts it: {@code utime + stime} of {@code /proc/<pid>/stat} (fields 14 and 15,
 * every thread of the process, GC and JIT included), in clock ticks of {@link #TICKS_PER_SECOND}. The benchmark
 * takes one reading of every gateway process at the start of a row's measured window and one at its end; the sum of
 * the deltas over the window's decisions is the row's CPU per decision.
 */
final class ProcCpu {

    /** {@code USER_HZ}, the unit of {@code /proc/<pid>/stat}: 100 on every Linux architecture the JDK runs on. */
    static final long TICKS_PER_SECOND = 100;

    private ProcCpu() {
    }

    /**
     * {@code utime + stime} of one {@code /proc/<pid>/stat} line. The command name (field 2) is in parentheses and may
     * hold spaces and parentheses itself, so the fields are counted from the last {@code ')'}.
     *
     * @throws IllegalArgumentException when the line is not a stat line
     */
    static long ticks(String statLine) {
        int close = statLine.lastIndexOf(')');
        if (close < 0) {
            throw new IllegalArgumentException("not a /proc/<pid>/stat line: " + statLine);
        }
        String[] f = statLine.substring(close + 1).trim().split("\\s+");
        // f[0] is field 3 (state): utime (field 14) is f[11], stime (field 15) f[12]
        if (f.length < 13) {
            throw new IllegalArgumentException("a /proc/<pid>/stat line with too few fields: " + statLine);
        }
        try {
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("utime/stime are not numbers in: " + statLine, e);
        }
    }

    /** The process's CPU ticks so far, or empty when it is gone (or this is not Linux). */
    static OptionalLong read(long pid) {
        try {
            return OptionalLong.of(ticks(Files.readString(Path.of("/proc", Long.toString(pid), "stat"),
                    StandardCharsets.US_ASCII)));
        } catch (IOException | IllegalArgumentException e) {
            return OptionalLong.empty();
        }
    }

    /** The summed ticks of the processes; a process that cannot be read makes the reading unusable (empty). */
    static OptionalLong readAll(List<Long> pids) {
        return sum(pids, ProcCpu::read);
    }

    /** {@code reading} of every process, summed; empty when one is. */
    private static OptionalLong sum(List<Long> pids, LongFunction<OptionalLong> reading) {
        return total(pids.stream().map(reading::apply).toList());
    }

    /** Readings of several processes, summed; empty when one is (the sum would not be the processes' CPU). */
    static OptionalLong total(List<OptionalLong> readings) {
        long sum = 0;
        for (OptionalLong t : readings) {
            if (t.isEmpty()) {
                return OptionalLong.empty();
            }
            sum += t.getAsLong();
        }
        return OptionalLong.of(sum);
    }

    /**
     * Whether a {@code /proc/<pid>/task/<tid>/stat} line is one of HotSpot's JIT compiler threads ("C1
     * CompilerThread0", "C2 CompilerThread1": the kernel keeps 15 characters of a thread's name, "C2 CompilerThre").
     */
    static boolean jitThread(String statLine) {
        int open = statLine.indexOf('(');
        int close = statLine.lastIndexOf(')');
        if (open < 0 || close < open) {
            return false;
        }
        String name = statLine.substring(open + 1, close);
        return name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler");
    }

    /**
     * The CPU ticks of the process's JIT compiler threads so far, or empty when it cannot be read. Why: on 2 cores
     * three replica JVMs are still compiling well after the warm-up (a replica's JFR recording of the r3 row, 45 s in:
     * the C2 compiler thread its busiest thread), and that is warm-up, not a decision's cost. HotSpot starts and
     * stops compiler threads as its queue grows and shrinks: the ticks of one that ended within the window leave
     * with it, so a window's figure is a lower bound.
     */
    static OptionalLong readJit(long pid) {
        try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            long sum = 0;
            for (Path task : (Iterable<Path>) tasks::iterator) {
                String line;
                try {
                    line = Files.readString(task.resolve("stat"), StandardCharsets.US_ASCII);
                } catch (IOException e) {
                    continue; // the thread ended meanwhile
                }
                if (jitThread(line)) {
                    sum += ticks(line);
                }
            }
            return OptionalLong.of(sum);
        } catch (IOException | IllegalArgumentException | java.io.UncheckedIOException e) {
            return OptionalLong.empty();
        }
    }

    /** The summed JIT ticks of the processes ({@link #readJit}); empty when one cannot be read. */
    static OptionalLong readAllJit(List<Long> pids) {
        return sum(pids, ProcCpu::readJit);
    }

    /**
     * Milliseconds of CPU per decision between two readings.
     *
     * @return {@code NaN} when there were no decisions or the counters went backwards (a process restarted)
     */
    static double millisPerDecision(long ticksBefore, long ticksAfter, long decisions) {
        if (decisions <= 0 || ticksAfter < ticksBefore) {
            return Double.NaN;
        }
        return (ticksAfter - ticksBefore) * 1000.0 / TICKS_PER_SECOND / decisions;
    }

    /**
     * {@link #millisPerDecision} of each process between two readings of all of them (in the same order), rounded to
     * three decimals; null for a process missing from either reading, or whose counters went backwards.
     */
    static List<Double> millisPerDecisionEach(List<OptionalLong> before, List<OptionalLong> after, long decisions) {
        List<Double> out = new ArrayList<>(after.size());
        for (int i = 0; i < after.size(); i++) {
            boolean read = i < before.size() && before.get(i).isPresent() && after.get(i).isPresent();
            double ms = read ? millisPerDecision(before.get(i).getAsLong(), after.get(i).getAsLong(), decisions)
                    : Double.NaN;
            out.add(Double.isNaN(ms) ? null : Math.round(ms * 1000) / 1000.0);
        }
        return out;
    }
}
