package io.vgpu.gateway.e2e;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import com.sun.management.GarbageCollectionNotificationInfo;
import org.slf4j.LoggerFactory;

import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Collects Vert.x's blocked-thread warnings ({@code Thread ... has been blocked for N ms, time limit is L ms}) of the
 * Vert.x instances whose limit is {@code limitMillis} while attached: the mock API server's own Vert.x keeps its
 * default limit, so its warnings are not taken.
 *
 * <p>A stop-the-world garbage collection stops an event loop in whatever it is doing, and the tests' JVM runs the
 * serial collector, whose pauses on a loaded 2-core machine reach several hundred milliseconds. Such a pause is no work
 * on the event loop, so a warning counts only for the part of its blocked interval that no collection covered: the
 * collections' pauses are recorded from the JVM's own notifications. Work that holds a loop for seconds is never
 * covered by them.
 */
final class BlockedThreadWarnings extends AppenderBase<ILoggingEvent> implements AutoCloseable {

    private static final String CHECKER = "io.vertx.core.impl.BlockedThreadChecker";
    private static final Pattern BLOCKED = Pattern.compile("has been blocked for (\\d+) ms");

    private final long limitMillis;
    private final String limit;
    private final List<Warning> warnings = new CopyOnWriteArrayList<>();
    private final List<long[]> pauses = new CopyOnWriteArrayList<>();
    private final NotificationListener onCollection = this::collected;
    private final long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();

    /** One warning: when it was logged, how long the thread had been blocked, and what it said. */
    private record Warning(long atMillis, long blockedMillis, String text) {
    }

    private BlockedThreadWarnings(long limitMillis) {
        this.limitMillis = limitMillis;
        this.limit = "time limit is " + limitMillis + " ms";
    }

    /** Attaches a collector to the root logger and to the JVM's garbage collectors. */
    static BlockedThreadWarnings attach(long limitMillis) {
        Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
        BlockedThreadWarnings w = new BlockedThreadWarnings(limitMillis);
        w.setName("blocked-threads");
        w.setContext(root.getLoggerContext());
        w.start();
        root.addAppender(w);
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            ((NotificationEmitter) gc).addNotificationListener(w.onCollection, null, null);
        }
        return w;
    }

    @Override
    protected void append(ILoggingEvent event) {
        String message = event.getFormattedMessage();
        Matcher blocked = BLOCKED.matcher(message);
        if (event.getLoggerName().equals(CHECKER) && message.contains(limit) && blocked.find()) {
            warnings.add(new Warning(event.getTimeStamp(), Long.parseLong(blocked.group(1)),
                    event.getThreadName() + ": " + message + (event.getThrowableProxy() == null ? "" : stack(event))));
        }
    }

    private void collected(Notification notification, Object handback) {
        if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
            var info = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData()).getGcInfo();
            pauses.add(new long[] {jvmStart + info.getStartTime(), jvmStart + info.getEndTime()});
        }
    }

    private static String stack(ILoggingEvent event) {
        StringBuilder out = new StringBuilder();
        var frames = event.getThrowableProxy().getStackTraceElementProxyArray();
        for (int i = 0; i < Math.min(frames.length, 25); i++) {
            out.append("\n    ").append(frames[i].getSTEAsString());
        }
        return out.toString();
    }

    /**
     * The warnings since the last {@link #clear()} whose thread was blocked past the limit by something else than
     * garbage collection.
     */
    List<String> warnings() {
        List<String> out = new ArrayList<>();
        for (Warning w : warnings) {
            long from = w.atMillis() - w.blockedMillis();
            long collecting = 0;
            for (long[] pause : pauses) {
                collecting += Math.max(0, Math.min(pause[1], w.atMillis()) - Math.max(pause[0], from));
            }
            if (w.blockedMillis() - collecting >= limitMillis) {
                out.add(w.text() + (collecting > 0 ? "\n    (" + collecting + " ms of it garbage collection)" : ""));
            }
        }
        return out;
    }

    /** Forgets what was collected (e.g. the start-up's class loading). */
    void clear() {
        warnings.clear();
    }

    @Override
    public void close() {
        ((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).detachAppender(this);
        stop();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            try {
                ((NotificationEmitter) gc).removeNotificationListener(onCollection);
            } catch (ListenerNotFoundException e) {
                // never added to this one
            }
        }
    }
}
