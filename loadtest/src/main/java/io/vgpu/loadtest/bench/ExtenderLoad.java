package io.vgpu.loadtest.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vgpu.gateway.core.PodSpec;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The two loads of the benchmark, as kube-scheduler produces them:
 * <ul>
 *   <li>{@link #filterOnly}: each stream sends {@code /filter} for a new pod, waits for the answer, sends the
 *       next;</li>
 *   <li>{@link #cycle}: each stream is one kube-scheduler: its scheduling cycle sends {@code /filter} and waits;
 *       the binding cycle then sends {@code /bind} asynchronously (kube-scheduler binds in a goroutine) while the
 *       stream goes on with the next pod; at most {@link #MAX_BINDS_PER_STREAM} binds are in flight per stream.
 *       A decision counts when its bind is answered without error inside the window.</li>
 * </ul>
 * Requests go round-robin over the given ports (the replicas behind the gateway Service). Before a pod's first
 * request, {@code create} puts it into the API (not timed) and returns it as the API stored it (its UID).
 */
final class ExtenderLoad {

    static final int MAX_BINDS_PER_STREAM = 64;

    private ExtenderLoad() {
    }

    /**
     * @param warmup  not measured
     * @param measure the measured window
     */
    record Timing(Duration warmup, Duration measure) {
    }

    static Row filterOnly(String id, String title, BenchHttp http, int[] ports, BenchPods pods, int streams,
                          Timing timing, Function<PodSpec, Future<PodSpec>> create) throws InterruptedException {
        Samples latency = new Samples();
        Map<String, Integer> errors = new HashMap<>();
        long[] seq = {0};
        long[] ok = {0};
        long[] succeeded = {0};
        ClosedLoop.Window w = ClosedLoop.run(http.vertx(), streams,
                ClosedLoop.window(timing.warmup(), timing.measure()), (stream, measured) -> {
                    int port = ports[(int) (seq[0] % ports.length)];
                    return create.apply(pods.pod(seq[0]++)).compose(pod -> {
                        Buffer body = pods.filterArgs(pod);
                        long t0 = System.nanoTime();
                        return http.post(port, "/filter", body).map(reply -> {
                            if (filterError(reply).isEmpty()) {
                                succeeded[0]++;
                            }
                            if (measured) {
                                latency.add(System.nanoTime() - t0);
                                String error = filterError(reply);
                                if (error.isEmpty()) {
                                    ok[0]++;
                                } else {
                                    errors.merge(reason(error), 1, Integer::sum);
                                }
                            }
                            return null;
                        });
                    });
                });
        return new Row(id, title, ok[0], errors, w.seconds(), latency.latency(), Map.of(), Map.of("streams", streams,
                "succeededIncludingWarmup", succeeded[0]));
    }

    static Row cycle(String id, String title, BenchHttp http, int[] ports, BenchPods pods, int streams, Timing timing,
                     Function<PodSpec, Future<PodSpec>> create) throws InterruptedException {
        Samples filter = new Samples();
        Samples bind = new Samples();
        Samples cycle = new Samples();
        Map<String, Integer> errors = new HashMap<>();
        long[] seq = {0};
        long[] rr = {0};
        long[] ok = {0};
        long[] succeeded = {0};
        int[] inFlight = new int[streams];
        ClosedLoop.Window w = ClosedLoop.window(timing.warmup(), timing.measure());
        ClosedLoop.run(http.vertx(), streams, w, (stream, measured) -> {
                    return create.apply(pods.pod(seq[0]++)).compose(pod -> {
                        long start = System.nanoTime();
                        return http.post(ports[(int) (rr[0]++ % ports.length)], "/filter", pods.filterArgs(pod))
                                .compose(reply -> {
                                    if (measured) {
                                        filter.add(System.nanoTime() - start);
                                    }
                                    String error = filterError(reply);
                                    if (!error.isEmpty()) {
                                        if (measured) {
                                            errors.merge("filter: " + reason(error), 1, Integer::sum);
                                        }
                                        return Future.succeededFuture();
                                    }
                                    String node = reply.json().path("NodeNames").path(0).asText();
                                    inFlight[stream]++;
                                    long bindStart = System.nanoTime();
                                    Future<Void> bound = http.post(ports[(int) (rr[0]++ % ports.length)], "/bind",
                                            BenchPods.bindingArgs(pod, node)).map(b -> {
                                                inFlight[stream]--;
                                                long end = System.nanoTime();
                                                if (measured) {
                                                    bind.add(end - bindStart);
                                                    cycle.add(end - start);
                                                }
                                                String bindError = b.error();
                                                if (bindError.isEmpty()) {
                                                    succeeded[0]++;
                                                }
                                                if (!w.contains(end)) {
                                                    return null;
                                                }
                                                if (bindError.isEmpty()) {
                                                    ok[0]++;
                                                } else {
                                                    errors.merge("bind: " + reason(bindError), 1, Integer::sum);
                                                }
                                                return null;
                                            });
                                    return inFlight[stream] >= MAX_BINDS_PER_STREAM ? bound
                                            : Future.succeededFuture();
                                });
                    });
                });
        awaitBinds(inFlight);
        Map<String, Samples.Latency> steps = new LinkedHashMap<>();
        steps.put("filter", filter.latency());
        steps.put("bind", bind.latency());
        return new Row(id, title, ok[0], errors, w.seconds(), cycle.latency(), steps, Map.of("streams", streams,
                "succeededIncludingWarmup", succeeded[0]));
    }

    private static void awaitBinds(int[] inFlight) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
        while (System.nanoTime() < deadline) {
            int total = 0;
            for (int n : inFlight) {
                total += n;
            }
            if (total == 0) {
                return;
            }
            Thread.sleep(20);
        }
    }

    /** The filter answer's error: {@code Error}, or no node chosen (with the first node's reason). */
    static String filterError(BenchHttp.Reply reply) {
        String error = reply.error();
        if (!error.isEmpty()) {
            return error;
        }
        JsonNode names = reply.json().path("NodeNames");
        if (names.isArray() && names.size() == 1) {
            return "";
        }
        JsonNode failed = reply.json().path("FailedNodes");
        return failed.isObject() && failed.size() > 0 ? "no fit: " + failed.elements().next().asText()
                : "no node chosen";
    }

    /** An error text without its pod- and node-specific parts, to count by. */
    static String reason(String error) {
        String r = error.replaceAll("bench-[0-9a-z-]+-\\d+", "<pod>").replaceAll("gpu-node-\\d+", "<node>")
                .replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<uid>");
        return r.length() > 120 ? r.substring(0, 120) : r;
    }
}
