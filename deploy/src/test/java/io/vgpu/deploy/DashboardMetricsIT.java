package io.vgpu.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vgpu.gateway.metrics.GatewayMetrics;
import io.vgpu.gateway.http.InFlightLimiter;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Grafana dashboard queries only metrics the apps export (an integration test: it reads the
 * runnable jars that {@code package} builds).
 */
class DashboardMetricsIT {

    private static final Pattern METRIC = Pattern.compile("\\b((?:hami|vgpu)_[a-z_]+)\\b");

    @Test
    void dashboardQueriesOnlyExportedMetrics() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(MonitoringTest.DASHBOARD.toFile());
        assertThat(dashboard.path("uid").asText()).isEqualTo("vgpu-gateway");
        Set<String> queried = new TreeSet<>();
        for (JsonNode expr : dashboard.findValues("expr")) {
            Matcher m = METRIC.matcher(expr.asText());
            while (m.find()) {
                queried.add(m.group(1));
            }
        }
        for (JsonNode q : dashboard.path("templating").path("list").findValues("query")) {
            Matcher m = METRIC.matcher(q.toString());
            while (m.find()) {
                queried.add(m.group(1));
            }
        }
        assertThat(queried).as("metrics queried").hasSizeGreaterThan(15);
        Set<String> exported = exportedMetrics();
        assertThat(exported).containsAll(queried);
        // both apps are on the dashboard
        assertThat(queried).anyMatch(n -> n.startsWith("vgpu_filter")).anyMatch(n -> n.startsWith("hami_host_gpu"))
                .anyMatch(n -> n.startsWith("hami_gpu_memory")).anyMatch(n -> n.startsWith("hami_vgpu_memory_used"));
    }

    /**
     * What the apps export: the gateway's own series from a real scrape of {@link GatewayMetrics}, and
     * HAMi's names as they appear in the classes of both runnable jars.
     */
    static Set<String> exportedMetrics() throws IOException {
        Set<String> names = new TreeSet<>();
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        GatewayMetrics metrics = new GatewayMetrics(registry, "r0");
        for (String outcome : List.of("ok", "error")) {
            metrics.webhook(outcome, 1_000_000);
            metrics.filter(outcome, 1_000_000);
            metrics.bind(outcome, 1_000_000);
        }
        metrics.overloaded("/filter");
        metrics.reserveConflict();
        metrics.filterFailed("no_fit");
        metrics.nodesRejected("CardInsufficientMemory", 2);
        metrics.bindFailed("lock_timeout");
        metrics.lockWait("acquired", 1_000_000);
        metrics.call("POST", "pods/binding", "201", 1_000_000);
        metrics.call("PATCH", "nodes", "409", 1_000_000);
        InFlightLimiter filterLimiter = new InFlightLimiter("/filter", 8);
        metrics.inFlight("/filter", filterLimiter::inFlight);
        for (String line : registry.scrape().split("\n")) {
            if (!line.isBlank() && !line.startsWith("#")) {
                names.add(line.split("[{ ]", 2)[0]);
            }
        }
        for (String jar : List.of("gateway/target/vgpu-gateway-all.jar", "device-plugin/target/vgpu-device-plugin-all.jar")) {
            try (JarFile file = new JarFile(Repo.built(jar).toFile())) {
                var entries = file.entries();
                while (entries.hasMoreElements()) {
                    var e = entries.nextElement();
                    if (e.getName().startsWith("io/vgpu/") && e.getName().endsWith(".class")) {
                        String text = new String(file.getInputStream(e).readAllBytes(), StandardCharsets.ISO_8859_1);
                        Matcher m = Pattern.compile("hami_[a-z_]+").matcher(text);
                        while (m.find()) {
                            names.add(m.group());
                        }
                    }
                }
            }
        }
        return names;
    }

}
