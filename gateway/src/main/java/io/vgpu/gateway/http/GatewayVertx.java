package io.vgpu.gateway.http;

import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;

import java.util.Set;
import java.util.UUID;

/** Builds the process's {@link Vertx}, recording its HTTP server metrics into the gateway's registry. */
public final class GatewayVertx {

    private GatewayVertx() {
    }

    private static final Set<String> LINT_REJECTED = Set.of("jvm.compilation.time", "process.cpu.time",
            "system.cpu.count");

    /**
     * @param registry the registry that {@link MetricsVerticle} scrapes
     * @return a new Vert.x instance with Vert.x's default options; the caller closes it
     */
    public static Vertx create(PrometheusMeterRegistry registry) {
        return create(registry, new VertxOptions());
    }

    /**
     * @param registry the registry that {@link MetricsVerticle} scrapes
     * @param options  the Vert.x options to start from (event loops, blocked-thread checker); their metrics
     *                 options are replaced
     * @return a new Vert.x instance; the caller closes it
     */
    public static Vertx create(PrometheusMeterRegistry registry, VertxOptions options) {
        // three of Micrometer's JVM meters have names promtool's lint rejects (abbreviated units, a gauge
        // ending in _count); they add nothing the kept meters (process_cpu_usage, jvm_*) do not say
        registry.config().meterFilter(MeterFilter.deny(id -> LINT_REJECTED.contains(id.getName())));
        MicrometerMetricsOptions metrics = new MicrometerMetricsOptions()
                .setEnabled(true)
                .setJvmMetricsEnabled(true)
                // a name of its own, so that several instances in one JVM (tests) never share a backend
                .setRegistryName("vgpu-" + UUID.randomUUID());
        return Vertx.builder()
                .with(new VertxOptions(options).setMetricsOptions(metrics))
                .withMetrics(new MicrometerMetricsFactory(registry))
                .build();
    }
}
