package io.vgpu.gateway.http;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;

import java.util.UUID;

/** Builds the process's {@link Vertx}, recording its HTTP server metrics into the gateway's registry. */
public final class GatewayVertx {

    private GatewayVertx() {
    }

    /**
     * @param registry the registry that {@link MetricsVerticle} scrapes
     * @return a new Vert.x instance; the caller closes it
     */
    public static Vertx create(PrometheusMeterRegistry registry) {
        MicrometerMetricsOptions metrics = new MicrometerMetricsOptions()
                .setEnabled(true)
                .setJvmMetricsEnabled(true)
                // a name of its own, so that several instances in one JVM (tests) never share a backend
                .setRegistryName("vgpu-" + UUID.randomUUID());
        return Vertx.builder()
                .with(new VertxOptions().setMetricsOptions(metrics))
                .withMetrics(new MicrometerMetricsFactory(registry))
                .build();
    }
}
