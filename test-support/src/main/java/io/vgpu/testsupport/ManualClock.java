package io.vgpu.testsupport;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A UTC clock that tests move by hand; reads and moves are safe from any thread. */
public final class ManualClock extends Clock {

    private volatile Instant now;

    /** A clock at {@code start}. */
    public ManualClock(Instant start) {
        this.now = start;
    }

    /** Moves the clock forward by {@code d}. */
    public synchronized void advance(Duration d) {
        now = now.plus(d);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return now;
    }
}
