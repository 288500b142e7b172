package io.vgpu.gateway;

import io.vertx.core.VertxOptions;
import io.vgpu.gateway.config.EnvReader;
import io.vgpu.gateway.core.dra.DraConfig;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Test bridge to the composition root: reads a {@code VGPU_*} environment exactly as {@code serve} does (one
 * reader, unknown keys refused) and starts the real gateway with {@link GatewayAssembly#start}. Lets tests in other
 * packages (the end-to-end suite) run the production wiring without widening {@link GatewayAssembly}.
 */
public final class GatewayLauncher {

    private GatewayLauncher() {
    }

    /** A running gateway started by {@link #start}. */
    public static final class Handle implements AutoCloseable {
        private final RunningGateway running;

        private Handle(RunningGateway running) {
            this.running = running;
        }

        /** The bound API port (/webhook, /filter, /bind, /readyz). */
        public int apiPort() {
            return running.apiPort();
        }

        /** The bound metrics port. */
        public int metricsPort() {
            return running.metricsPort();
        }

        /** What the SIGTERM hook does: drain, close Vert.x, leave the Hazelcast cluster. */
        @Override
        public void close() {
            running.closeAndWait(Duration.ofSeconds(30));
        }
    }

    /**
     * Parses {@code env} into {@link GatewayConfig} and {@link ClusterConfig} and starts the gateway, waiting for
     * its listeners at most {@code timeout}.
     *
     * @throws io.vgpu.gateway.config.ConfigurationException when the environment is unusable
     * @throws Exception                                     when the gateway does not start
     */
    public static Handle start(Map<String, String> env, Duration timeout) throws Exception {
        return start(env, timeout, new VertxOptions());
    }

    /** {@link #start(Map, Duration)} on a Vert.x built from {@code vertxOptions}. */
    public static Handle start(Map<String, String> env, Duration timeout, VertxOptions vertxOptions) throws Exception {
        EnvReader reader = new EnvReader(env, GatewayConfig.PREFIX);
        GatewayConfig config = GatewayConfig.read(reader);
        ClusterConfig cluster = ClusterConfig.read(reader, config == null ? "0.0.0.0" : config.bindAddress());
        DraConfig dra = DraSettings.read(reader);
        reader.finish();
        return new Handle(GatewayAssembly.start(config, cluster, dra, ViewFeeds.DIRECT, vertxOptions).toCompletionStage().toCompletableFuture()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS));
    }
}
