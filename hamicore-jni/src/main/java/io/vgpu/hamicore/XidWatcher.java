package io.vgpu.hamicore;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Waits for XID events on a dedicated daemon thread ({@value #THREAD_NAME}) and hands each one to
 * a callback, so no caller ever blocks in {@code nvmlEventSetWait}.
 *
 * <pre>
 *   start ──► [ await(pollTimeout) ] ──event──► onEvent(event) ──┐
 *                 │   ▲                                          │
 *                 │   └──────────────── loop ◄───────────────────┘
 *                 └─NvmlException──► onError(e), pause pollTimeout, loop
 *   close ──► stop flag, join (≤ one pollTimeout), close the event set
 * </pre>
 *
 * HAMi's device plugin polls with 5 s timeouts and marks every device unhealthy on a wait error;
 * those policies belong to the callbacks. Callbacks run on the watcher thread and must not block
 * for long; an exception thrown by one is logged and the loop goes on.
 */
public final class XidWatcher implements AutoCloseable {

    static final String THREAD_NAME = "nvml-xid-watcher";
    private static final System.Logger LOG = System.getLogger(XidWatcher.class.getName());

    private final XidEventSet events;
    private final Duration pollTimeout;
    private final Consumer<XidEvent> onEvent;
    private final Consumer<NvmlException> onError;
    private final Thread thread;
    private volatile boolean running = true;

    private XidWatcher(XidEventSet events, Duration pollTimeout, Consumer<XidEvent> onEvent,
                       Consumer<NvmlException> onError) {
        this.events = events;
        this.pollTimeout = pollTimeout;
        this.onEvent = onEvent;
        this.onError = onError;
        this.thread = new Thread(this::loop, THREAD_NAME);
        this.thread.setDaemon(true);
    }

    /**
     * Starts watching; the watcher owns {@code events} from now on and closes it in {@link #close()}.
     *
     * @param pollTimeout how long one native wait may block; bounds how long {@link #close()} takes
     */
    public static XidWatcher start(XidEventSet events, Duration pollTimeout, Consumer<XidEvent> onEvent,
                                   Consumer<NvmlException> onError) {
        Objects.requireNonNull(events, "events");
        Objects.requireNonNull(onEvent, "onEvent");
        Objects.requireNonNull(onError, "onError");
        if (pollTimeout.isNegative() || pollTimeout.isZero()) {
            throw new IllegalArgumentException("pollTimeout must be positive: " + pollTimeout);
        }
        XidWatcher watcher = new XidWatcher(events, pollTimeout, onEvent, onError);
        watcher.thread.start();
        return watcher;
    }

    /** True while the watcher thread runs. */
    public boolean isRunning() {
        return thread.isAlive();
    }

    /** Stops the loop, waits for the thread (at most about one poll timeout) and frees the set. */
    @Override
    public void close() {
        running = false;
        try {
            thread.join(pollTimeout.multipliedBy(2).plusSeconds(1).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        events.close();
    }

    private void loop() {
        while (running) {
            try {
                events.await(pollTimeout).ifPresent(this::deliver);
            } catch (NvmlException e) {
                if (!running) {
                    return;
                }
                report(e);
                pause();
            }
        }
    }

    private void deliver(XidEvent event) {
        try {
            onEvent.accept(event);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "XID event callback failed for " + event, e);
        }
    }

    private void report(NvmlException error) {
        try {
            onError.accept(error);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "XID error callback failed for " + error, e);
        }
    }

    /** After an error, wait one poll period so a persistent failure does not spin the CPU. */
    private void pause() {
        long until = System.nanoTime() + pollTimeout.toNanos();
        while (running && System.nanoTime() < until) {
            try {
                Thread.sleep(Math.min(50, Math.max(1, (until - System.nanoTime()) / 1_000_000)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
