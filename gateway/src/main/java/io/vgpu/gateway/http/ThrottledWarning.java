package io.vgpu.gateway.http;

import org.slf4j.Logger;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A WARN line at most once a minute, saying how many were held back since the last one: for events a remote
 * party can repeat at will (refused clients, failed TLS handshakes), which an operator must see but which must not
 * flood the log. Thread-safe.
 */
final class ThrottledWarning {

    private static final long EVERY_NANOS = 60_000_000_000L;

    private final Logger log;
    private final AtomicLong last = new AtomicLong(System.nanoTime() - EVERY_NANOS);
    private final AtomicLong held = new AtomicLong();

    ThrottledWarning(Logger log) {
        this.log = log;
    }

    /** Logs {@code message} (built only when it is logged) unless a line was logged within the last minute. */
    void warn(Supplier<String> message) {
        long now = System.nanoTime();
        long previous = last.get();
        if (now - previous < EVERY_NANOS || !last.compareAndSet(previous, now)) {
            held.incrementAndGet();
            return;
        }
        long skipped = held.getAndSet(0);
        log.warn("{}{}", message.get(), skipped == 0 ? "" : " (" + skipped + " similar since the last message)");
    }
}
