package io.vgpu.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vgpu.gateway.http.GatewayMetrics;
import io.vgpu.gateway.http.InFlightLimiter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ServiceMonitors scrape both apps' metrics ports; the Grafana dashboard (deploy/grafana, copied into the
 * chart) queries only metrics the apps export.
 */
class MonitoringTest {

    static final Path DASHBOARD = Repo.deploy().resolve("grafana/vgpu-gateway.json");
    private static final Pattern METRIC = Pattern.compile("\\b((?:hami|vgpu)_[a-z_]+)\\b");

    @Test
    void serviceMonitorsScrapeTheMetricsPortOfEachApp() {
        Rendered r = Helm.template(ValueSet.MONITORING);
        List<JsonNode> monitors = r.all("ServiceMonitor");
        assertThat(monitors).hasSize(2);
        for (JsonNode m : monitors) {
            assertThat(m.path("metadata").path("labels").path("release").asText()).isEqualTo("prometheus");
            List<JsonNode> selected = r.all("Service").stream()
                    .filter(s -> Pods.selects(m.path("spec").path("selector").path("matchLabels"), s.path("metadata").path("labels")))
                    .toList();
            assertThat(selected).as(m.path("metadata").path("name").asText() + " selects one Service").hasSize(1);
            String port = m.path("spec").path("endpoints").get(0).path("port").asText();
            assertThat(selected.get(0).path("spec").path("ports").findValuesAsText("name")).contains(port);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, mode = EnumSource.Mode.EXCLUDE, names = "MONITORING")
    void noServiceMonitorUnlessAskedFor(ValueSet set) {
        assertThat(Helm.template(set).all("ServiceMonitor")).isEmpty();
    }

    @Test
    void dashboardConfigMapCarriesTheDashboard() throws IOException {
        JsonNode cm = Helm.template(ValueSet.MONITORING).one("ConfigMap", Names.FULL + "-dashboard");
        assertThat(cm.path("metadata").path("labels").path("grafana_dashboard").asText()).isEqualTo("1");
        ObjectMapper json = new ObjectMapper();
        assertThat(json.readTree(cm.path("data").path("vgpu-gateway.json").asText())).isEqualTo(json.readTree(DASHBOARD.toFile()));
    }

    @Test
    void dashboardQueriesOnlyExportedMetrics() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
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
        metrics.inFlight(new InFlightLimiter("/filter", 8));
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

    @Test
    void chartCopyOfTheDashboardIsCurrent() throws IOException {
        assertThat(Files.readString(Repo.chart().resolve("dashboards/vgpu-gateway.json")))
                .as("run deploy/scripts/render-manifests.sh").isEqualTo(Files.readString(DASHBOARD));
    }

    @Test
    void dashboardPanelsHaveUniqueIdsAndQueries() throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        Set<Integer> ids = new TreeSet<>();
        List<String> empty = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            assertThat(ids.add(panel.path("id").asInt())).as("panel id " + panel.path("id")).isTrue();
            if (!panel.path("type").asText().equals("row") && panel.path("targets").isEmpty()) {
                empty.add(panel.path("title").asText());
            }
        }
        assertThat(empty).as("panels without a query").isEmpty();
    }
}
