package io.vgpu.simulate;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import org.slf4j.LoggerFactory;

/**
 * Log levels for a simulation that prints its own progress and table: the gateway logs every decision at INFO and
 * every failed bind at WARN (a run counts those itself), and the one-member Hazelcast cluster its membership, so
 * only errors of the gateway and warnings of the simulator reach the terminal.
 */
final class SimulationLogs {

    private SimulationLogs() {
    }

    /** Quiets the gateway, fabric8 and Hazelcast for the rest of the process. */
    static void quiet() {
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext logback) {
            logback.getLogger("io.vgpu").setLevel(Level.ERROR);
            logback.getLogger(SimulationLogs.class.getPackageName()).setLevel(Level.WARN);
            logback.getLogger("io.fabric8").setLevel(Level.ERROR);
            // the membership logger has its own INFO level in logback.xml (what an operator follows in a cluster)
            logback.getLogger("com.hazelcast.internal.cluster").setLevel(Level.WARN);
        }
    }
}
