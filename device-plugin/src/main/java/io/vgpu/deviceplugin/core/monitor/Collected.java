package io.vgpu.deviceplugin.core.monitor;

import java.util.ArrayList;
import java.util.List;

/**
 * The series one collection step emitted, in emission order, and the problems it met (devices
 * skipped, NVML errors, undecodable annotations). Problems are expected outcomes to log, never
 * exceptions; a step with problems may still have emitted series.
 *
 * @param series   emitted series, in HAMi's emission order
 * @param problems human-readable descriptions, in the order met
 */
public record Collected(List<MetricSeries> series, List<String> problems) {

    /** Nothing emitted, nothing wrong. */
    public static final Collected NONE = new Collected(List.of(), List.of());

    public Collected {
        series = List.copyOf(series);
        problems = List.copyOf(problems);
    }

    /** Only a problem. */
    public static Collected problem(String problem) {
        return new Collected(List.of(), List.of(problem));
    }

    /** This followed by {@code next}. */
    public Collected plus(Collected next) {
        List<MetricSeries> s = new ArrayList<>(series);
        s.addAll(next.series);
        List<String> p = new ArrayList<>(problems);
        p.addAll(next.problems);
        return new Collected(s, p);
    }
}
