package io.vgpu.gateway.scheduling;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * Backpressure for informer ingest: at most {@code limit} changes of the shared state in flight; the rest wait in
 * a FIFO queue and start, in submission order, as earlier ones complete. A re-list of 200,000 pods thus holds
 * 200,000 small queued closures (the pods themselves are in the informer cache anyway) instead of 200,000
 * entry-processor invocations, each with its operation, serialized form and future (issue 6's heap).
 *
 * <p>Never blocks: {@link #submit} queues and returns; the lock guards only the queue and the counter, never a call.
 * Changes start strictly in submission order (a pod's release is never overtaken by its earlier charge), on the
 * submitting thread or on the thread that completed an earlier change; starting one only submits it (the store's
 * calls are asynchronous). A change that completes at once (or fails to start) frees its place at once, without
 * recursion. No change is ever dropped.
 */
final class IngestWindow {

    private final int limit;
    private final Queue<Runnable> waiting = new ArrayDeque<>();
    /**
     * The {@link #settled} calls not complete yet, each with how many changes submitted before it are still
     * pending: a count per call, not a future per change (an {@code allOf} over 200,000 pending changes of a re-list
     * built as many futures again, per resync).
     */
    private final List<Settling> settling = new ArrayList<>();
    /** Changes submitted and not completed yet (queued or in flight). */
    private long pending;
    /** Numbers the changes in submission order: a change counts for the {@link #settled} calls made after it. */
    private long submitted;
    private int inFlight;
    /** Whether some thread is starting waiting changes (only that one does, in queue order). */
    private boolean draining;

    /** @param limit how many changes may be in flight at once (at least 1) */
    IngestWindow(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit " + limit);
        }
        this.limit = limit;
    }

    /**
     * Queues {@code change}; it is started (called) once fewer than {@code limit} earlier changes are in flight and
     * every earlier change has started.
     *
     * @return completes as the change's stage does (exceptionally if calling {@code change} throws)
     */
    <T> CompletionStage<T> submit(Supplier<? extends CompletionStage<T>> change) {
        CompletableFuture<T> result = new CompletableFuture<>();
        boolean drain;
        synchronized (this) {
            long number = submitted++;
            pending++;
            waiting.add(() -> start(change, result, number));
            drain = !draining;
            draining = true;
        }
        if (drain) {
            drain();
        }
        return result;
    }

    /**
     * Completes once every change submitted before this call has completed (failed ones included); changes submitted
     * later are not waited for. A resync waits for it so that it reads the charges the informers' events already
     * asked for, instead of finding them missing and reading every such pod live.
     */
    CompletionStage<Void> settled() {
        synchronized (this) {
            if (pending > 0) {
                Settling s = new Settling(submitted, pending);
                settling.add(s);
                return s.done;
            }
        }
        return CompletableFuture.completedFuture(null);
    }

    /** How many changes are in flight now. */
    synchronized int inFlight() {
        return inFlight;
    }

    /** How many changes wait for a place now. */
    synchronized int waiting() {
        return waiting.size();
    }

    /** How many changes are in flight or wait for a place now (one read of both). */
    synchronized int pending() {
        return inFlight + waiting.size();
    }

    /**
     * Starts waiting changes while there is room, outside the lock (so no callback of a change ever runs under it).
     * Only one thread drains at a time, the one that set {@code draining}: changes start in queue order.
     */
    private void drain() {
        while (true) {
            Runnable next;
            synchronized (this) {
                if (inFlight >= limit || waiting.isEmpty()) {
                    draining = false;
                    return;
                }
                inFlight++;
                next = waiting.poll();
            }
            next.run();
        }
    }

    private <T> void start(Supplier<? extends CompletionStage<T>> change, CompletableFuture<T> result, long number) {
        CompletionStage<T> stage;
        try {
            stage = change.get();
        } catch (RuntimeException e) {
            finished();
            result.completeExceptionally(e);
            completed(number);
            return;
        }
        stage.whenComplete((value, error) -> {
            finished();
            if (error != null) {
                result.completeExceptionally(error);
            } else {
                result.complete(value);
            }
            completed(number);
        });
    }

    /** Change {@code number} is done: the {@link #settled} calls made after it wait for one change fewer. */
    private void completed(long number) {
        List<Settling> done = null;
        synchronized (this) {
            pending--;
            for (Iterator<Settling> it = settling.iterator(); it.hasNext(); ) {
                Settling s = it.next();
                if (number < s.before && --s.remaining == 0) {
                    it.remove();
                    if (done == null) {
                        done = new ArrayList<>(1);
                    }
                    done.add(s);
                }
            }
        }
        if (done != null) {
            done.forEach(s -> s.done.complete(null)); // outside the lock: a resync's callbacks run here
        }
    }

    /** One {@link #settled} call: it waits for the {@code remaining} changes numbered below {@code before}. */
    private static final class Settling {
        final long before;
        long remaining;
        final CompletableFuture<Void> done = new CompletableFuture<>();

        Settling(long before, long remaining) {
            this.before = before;
            this.remaining = remaining;
        }
    }

    /** Frees a place; the thread becomes the drainer when none is draining (a change completing inline is not). */
    private void finished() {
        boolean drain;
        synchronized (this) {
            inFlight--;
            drain = !draining;
            draining = true;
        }
        if (drain) {
            drain();
        }
    }
}
