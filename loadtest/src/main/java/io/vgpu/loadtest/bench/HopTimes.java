package io.vgpu.loadtest.bench;

import io.vgpu.gateway.scheduling.LockWaits;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Where a replica's decisions spend their time, per hop (issue 14, "3-replica loss"): every asynchronous call the
 * services make to the shared state ({@code state.reserve}, {@code state.confirmAndLock}, ...) and to the API stand-in
 * ({@code api.patchFilterAnnotations}, {@code api.lock}, {@code api.bind}, ...), counted and timed from the call to
 * its completion, plus the node-lock waits ({@code lock.wait}: every acquisition, waited or not; {@code
 * lock.contended}: tries that found the lock held and were made again). A measuring wrapper around the real parts,
 * not a double: the calls go through unchanged.
 */
final class HopTimes implements LockWaits {

    private final Map<String, LongAdder[]> hops = new ConcurrentHashMap<>();
    /** Calls started and not completed yet, per prefix (never reset): whether a part's work has drained. */
    private final Map<String, LongAdder> pending = new ConcurrentHashMap<>();
    private final LockWaits next;

    /** @param next where lock waits are recorded as well (the replica's metrics) */
    HopTimes(LockWaits next) {
        this.next = next;
    }

    /** {@code target} behind a proxy that times each call returning a {@link CompletionStage} as {@code prefix.method}. */
    <T> T timed(Class<T> type, T target, String prefix) {
        InvocationHandler handler = (proxy, method, args) -> {
            long start = System.nanoTime();
            Object result;
            try {
                result = method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            if (result instanceof CompletionStage<?> stage) {
                String hop = prefix + "." + method.getName();
                LongAdder open = pending.computeIfAbsent(prefix, p -> new LongAdder());
                open.increment();
                stage.whenComplete((r, e) -> {
                    open.decrement();
                    add(hop, System.nanoTime() - start);
                });
            }
            return result;
        };
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
    }

    @Override
    public void record(String outcome, long nanos) {
        add("lock.wait", nanos);
        next.record(outcome, nanos);
    }

    @Override
    public void contended() {
        add("lock.contended", 0);
        next.contended();
    }

    /**
     * The calls behind {@code prefix} started and not completed now. The ingest's window keeps up to 512 of its
     * changes in flight while any wait, so 0 (read more than once) means its queue has drained.
     */
    long inFlight(String prefix) {
        LongAdder open = pending.get(prefix);
        return open == null ? 0 : open.sum();
    }

    /** Forgets what was counted (the start of a measured window). */
    void reset() {
        hops.clear();
    }

    /** One line: {@code hop=count:totalNanos} for every hop, sorted by name. */
    String line() {
        StringBuilder b = new StringBuilder("HOPS .");
        new TreeMap<>(hops).forEach((hop, c) -> b.append(' ').append(hop).append('=').append(c[0].sum()).append(':')
                .append(c[1].sum()));
        return b.toString();
    }

    /** Sums lines of {@link #line()} from several replicas into {@code hop -> {count, mean ms}}. */
    static Map<String, String> summed(Iterable<String> lines) {
        Map<String, long[]> sums = new TreeMap<>();
        for (String line : lines) {
            for (String part : line.trim().split(" ")) {
                int eq = part.indexOf('=');
                if (eq < 0) {
                    continue;
                }
                String[] v = part.substring(eq + 1).split(":");
                long[] s = sums.computeIfAbsent(part.substring(0, eq), k -> new long[2]);
                s[0] += Long.parseLong(v[0]);
                s[1] += Long.parseLong(v[1]);
            }
        }
        Map<String, String> out = new TreeMap<>();
        sums.forEach((hop, s) -> out.put(hop, s[0] + " calls, mean " + String.format(Locale.ROOT, "%.2f ms",
                s[0] == 0 ? 0.0 : s[1] / 1e6 / s[0])));
        return out;
    }

    /** The calls of {@code hop} in a {@link #summed} map; 0 when none. */
    static long count(Map<String, String> summed, String hop) {
        String v = summed.get(hop);
        return v == null ? 0 : Long.parseLong(v.substring(0, v.indexOf(' ')));
    }

    private void add(String hop, long nanos) {
        LongAdder[] c = hops.computeIfAbsent(hop, h -> new LongAdder[] {new LongAdder(), new LongAdder()});
        c[0].increment();
        c[1].add(nanos);
    }
}
