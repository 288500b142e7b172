package io.vgpu.gateway.e2e;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Collects the gateway's ERROR log events while attached: the gateway logs an unexpected exception (a crash of
 * a handler, an informer listener, a service) at ERROR, and expected rejections at most at WARN, so "no crash"
 * is "nothing collected".
 */
final class ErrorLogs extends AppenderBase<ILoggingEvent> implements AutoCloseable {

    private final List<String> errors = new CopyOnWriteArrayList<>();

    private ErrorLogs() {
    }

    /** Attaches a collector to the root logger. */
    static ErrorLogs attach() {
        Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
        ErrorLogs logs = new ErrorLogs();
        logs.setName("e2e-errors");
        logs.setContext(root.getLoggerContext());
        logs.start();
        root.addAppender(logs);
        return logs;
    }

    @Override
    protected void append(ILoggingEvent event) {
        if (event.getLevel().isGreaterOrEqual(Level.ERROR) && event.getLoggerName().startsWith("io.vgpu")) {
            errors.add(event.getLoggerName() + ": " + event.getFormattedMessage()
                    + (event.getThrowableProxy() == null ? "" : " (" + event.getThrowableProxy().getClassName() + ": "
                    + event.getThrowableProxy().getMessage() + ")"));
        }
    }

    /** Every ERROR event so far. */
    List<String> errors() {
        return List.copyOf(errors);
    }

    @Override
    public void close() {
        ((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).detachAppender(this);
        stop();
    }
}
