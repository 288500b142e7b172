package io.vgpu.loadtest.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One measured line of the benchmark.
 *
 * @param id         stable identifier, e.g. {@code filter-5000}
 * @param title      what was measured, in words
 * @param ok         requests (or decisions) that succeeded inside the window
 * @param errors     requests that failed inside the window, by reason
 * @param seconds    length of the measured window
 * @param latency    the headline latency (filter rows: the request; cycle rows: filter start to bind answer)
 * @param steps      latencies of the single calls (cycle rows: filter, bind)
 * @param extra      further figures (ratio to the ceiling, fan-out, heap, ...)
 */
record Row(String id, String title, long ok, Map<String, Integer> errors, double seconds, Samples.Latency latency,
           Map<String, Samples.Latency> steps, Map<String, Object> extra) {

    Row {
        errors = Map.copyOf(errors);
        steps = new LinkedHashMap<>(steps);
        extra = new LinkedHashMap<>(extra);
    }

    /** Successes per second of the window. */
    double throughput() {
        return seconds <= 0 ? 0 : ok / seconds;
    }

    long errorCount() {
        return errors.values().stream().mapToLong(Integer::longValue).sum();
    }

    /** A copy with one more figure. */
    Row with(String key, Object value) {
        Map<String, Object> e = new LinkedHashMap<>(extra);
        e.put(key, value);
        return new Row(id, title, ok, errors, seconds, latency, steps, e);
    }
}
