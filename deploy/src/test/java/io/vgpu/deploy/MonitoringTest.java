package io.vgpu.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ServiceMonitors scrape both apps' metrics ports; the Grafana dashboard (deploy/grafana) is shipped in
 * the chart as is. {@link DashboardMetricsIT} checks its queries against the built apps.
 */
class MonitoringTest {

    static final Path DASHBOARD = Repo.deploy().resolve("grafana/vgpu-gateway.json");

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
