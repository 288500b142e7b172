package io.vgpu.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** deploy/manifests is the chart rendered by deploy/scripts/render-manifests.sh, current and key-free. */
class PlainManifestsTest {

    static final Path MANIFESTS = Repo.deploy().resolve("manifests/vgpu-gateway.yaml");

    @Test
    void manifestsAreUpToDateWithTheChart() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(Repo.deploy().resolve("scripts/render-manifests.sh").toString(), "--check")
                .redirectErrorStream(true);
        pb.environment().put("HELM", Repo.helm().toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("stale generated files (run deploy/scripts/render-manifests.sh):\n" + out).isZero();
    }

    @Test
    void manifestsHoldTheWholeInstallWithoutKeys() throws Exception {
        String text = Files.readString(MANIFESTS);
        assertThat(text).doesNotContain("PRIVATE KEY").doesNotContain("tls.key:");
        Rendered r = new Rendered(Helm.parse(text));
        assertThat(r.objects().get(0).path("kind").asText()).isEqualTo("Namespace");
        String ns = r.objects().get(0).path("metadata").path("name").asText();
        assertThat(r.all("Secret")).isEmpty();
        assertThat(r.all("Certificate")).isNotEmpty();
        for (String kind : List.of("StatefulSet", "DaemonSet", "MutatingWebhookConfiguration", "NetworkPolicy",
                "PodDisruptionBudget", "ClusterRole", "ConfigMap", "Service")) {
            assertThat(r.all(kind)).as(kind).isNotEmpty();
        }
        for (JsonNode o : r.objects()) {
            String namespace = o.path("metadata").path("namespace").asText("");
            assertThat(namespace).as(o.path("kind").asText()).isIn("", ns, "kube-system");
        }
        JsonNode sts = r.all("StatefulSet").get(0);
        assertThat(sts.path("spec").path("replicas").asInt()).isEqualTo(3);
    }
}
