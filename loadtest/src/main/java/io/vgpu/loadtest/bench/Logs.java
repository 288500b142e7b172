package io.vgpu.loadtest.bench;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import org.slf4j.LoggerFactory;

/**
 * The gateway logs every decision at INFO; the benchmark measures the gateway, not the terminal, so only errors
 * reach the console (docs/benchmarks.md says so).
 */
final class Logs {

    /** java.util.logging holds loggers weakly: keep the ones that were turned down. */
    private static final java.util.logging.Logger MOCK = java.util.logging.Logger.getLogger("io.fabric8");

    private Logs() {
    }

    static void quiet() {
        System.setProperty("hazelcast.logging.type", "slf4j");
        MOCK.setLevel(java.util.logging.Level.SEVERE);
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext logback) {
            logback.getLogger("io.vgpu").setLevel(Level.ERROR);
            logback.getLogger("io.fabric8").setLevel(Level.ERROR);
            logback.getLogger("com.hazelcast").setLevel(Level.ERROR);
            logback.getLogger("com.hazelcast.internal.cluster").setLevel(Level.ERROR);
            logback.getLogger("io.vertx").setLevel(Level.ERROR);
            logback.getLogger("io.netty").setLevel(Level.ERROR);
        }
    }
}
