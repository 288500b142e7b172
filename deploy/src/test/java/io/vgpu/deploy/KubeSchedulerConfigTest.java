package io.vgpu.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.gateway.config.DeviceConfigFile;
import io.vgpu.state.codec.GoDuration;
import io.vgpu.gateway.core.request.NvidiaConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The kube-scheduler containers and their KubeSchedulerConfiguration: one profile and Lease per scheduler
 * name, the gateway Service as the extender over verified TLS, every resource the gateway manages ignored
 * by kube-scheduler's own fit, an HTTP timeout above the gateway's node-lock wait.
 */
class KubeSchedulerConfigTest {

    /** Each shard's KubeSchedulerConfiguration, in shard order. */
    static List<JsonNode> configs(Rendered r) throws IOException {
        JsonNode data = r.one("ConfigMap", Names.KUBE_SCHEDULER_CONFIG).path("data");
        List<JsonNode> out = new ArrayList<>();
        for (int i = 0; data.has("shard-" + i + ".yaml"); i++) {
            out.add(Helm.YAML.readTree(data.path("shard-" + i + ".yaml").asText()));
        }
        assertThat(out.size()).as("shard files").isEqualTo(data.size());
        return out;
    }

    /** The resource names the gateway reads from the rendered device config, as the gateway reads it. */
    static NvidiaConfig gatewayResources(Rendered r, Path dir) throws IOException {
        Path file = dir.resolve("device-config.yaml");
        Files.writeString(file, r.one("ConfigMap", Names.DEVICE_CONFIG).path("data").path("device-config.yaml").asText());
        return DeviceConfigFile.read(file);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, mode = EnumSource.Mode.EXCLUDE, names = "DEVICE_PLUGIN_ONLY")
    void oneKubeSchedulerPerSchedulerNameWithItsOwnProfileAndLease(ValueSet set) throws IOException {
        Rendered r = Helm.template(set);
        List<JsonNode> configs = configs(r);
        assertThat(configs).hasSize(set.shards());
        List<String> gatewayNames = List.of(Pods.env(GatewayEnvTest.gateway(r)).get("VGPU_SCHEDULER_NAMES").split(","));
        JsonNode sts = r.one("StatefulSet", Names.SCHEDULER);
        Set<String> ports = new HashSet<>();
        for (int i = 0; i < configs.size(); i++) {
            JsonNode c = configs.get(i);
            assertThat(c.path("apiVersion").asText()).isEqualTo("kubescheduler.config.k8s.io/v1");
            assertThat(c.path("kind").asText()).isEqualTo("KubeSchedulerConfiguration");
            assertThat(c.path("profiles")).hasSize(1);
            String name = c.path("profiles").get(0).path("schedulerName").asText();
            assertThat(name).isEqualTo(gatewayNames.get(i));
            JsonNode election = c.path("leaderElection");
            assertThat(election.path("leaderElect").asBoolean()).isTrue();
            assertThat(election.path("resourceLock").asText()).isEqualTo("leases");
            assertThat(election.path("resourceName").asText()).isEqualTo(name);
            assertThat(election.path("resourceNamespace").asText()).isEqualTo(ValueSet.NAMESPACE);
            assertThat(c.path("percentageOfNodesToScore").asInt()).isEqualTo(100);

            JsonNode container = Pods.container(sts, i == 0 ? "kube-scheduler" : "kube-scheduler-" + i);
            List<String> command = new ArrayList<>();
            container.path("command").forEach(a -> command.add(a.asText()));
            assertThat(command.get(0)).isEqualTo("kube-scheduler");
            String configPath = command.stream().filter(a -> a.startsWith("--config=")).findFirst().orElseThrow()
                    .substring("--config=".length());
            JsonNode volume = Pods.volumeAt(sts, container, Path.of(configPath).getParent().toString());
            assertThat(volume.path("configMap").path("name").asText()).isEqualTo(Names.KUBE_SCHEDULER_CONFIG);
            assertThat(configPath).endsWith("/shard-" + i + ".yaml");
            String port = command.stream().filter(a -> a.startsWith("--secure-port=")).findFirst().orElseThrow()
                    .substring("--secure-port=".length());
            assertThat(ports.add(port)).as("kube-schedulers in one pod need distinct ports").isTrue();
            assertThat(container.path("livenessProbe").path("httpGet").path("port").asText()).isEqualTo(port);
        }
        assertThat(Pods.containerNames(sts)).hasSize(set.shards() + 1).contains("gateway");
        assertThat(new HashSet<>(gatewayNames)).hasSize(set.shards());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, mode = EnumSource.Mode.EXCLUDE, names = "DEVICE_PLUGIN_ONLY")
    void extenderIsTheGatewayServiceOverVerifiedTls(ValueSet set) throws IOException {
        Rendered r = Helm.template(set);
        JsonNode service = r.one("Service", Names.SCHEDULER);
        JsonNode https = null;
        for (JsonNode p : service.path("spec").path("ports")) {
            if (p.path("name").asText().equals("https")) {
                https = p;
            }
        }
        assertThat(https).as("Service port https").isNotNull();
        assertThat(https.path("targetPort").asText()).isEqualTo("https");
        JsonNode sts = r.one("StatefulSet", Names.SCHEDULER);
        for (JsonNode c : configs(r)) {
            assertThat(c.path("extenders")).hasSize(1);
            JsonNode e = c.path("extenders").get(0);
            URI url = URI.create(e.path("urlPrefix").asText());
            assertThat(url.getScheme()).isEqualTo("https");
            assertThat(url.getHost()).isEqualTo(Names.SCHEDULER + "." + ValueSet.NAMESPACE + ".svc");
            assertThat(url.getPort()).isEqualTo(https.path("port").asInt());
            assertThat(e.path("enableHTTPS").asBoolean()).isTrue();
            assertThat(e.path("tlsConfig").path("insecure").asBoolean(true)).isFalse();
            JsonNode tls = e.path("tlsConfig");
            String caFile = tls.path("caFile").asText();
            JsonNode ks = Pods.container(sts, "kube-scheduler");
            JsonNode volume = Pods.volumeAt(sts, ks, Path.of(caFile).getParent().toString());
            if (set.clientAuth()) {
                // kube-scheduler presents its own client certificate: the gateway serves /filter and /bind to it only
                assertThat(volume.path("secret").path("secretName").asText()).isEqualTo(Names.CLIENT_TLS_SECRET);
                assertThat(volume.path("secret").path("items").findValuesAsText("key"))
                        .containsExactlyInAnyOrder("ca.crt", "tls.crt", "tls.key");
                assertThat(Pods.volumeAt(sts, ks, Path.of(tls.path("certFile").asText()).getParent().toString()))
                        .isEqualTo(volume);
                assertThat(tls.path("certFile").asText()).endsWith("/tls.crt");
                assertThat(tls.path("keyFile").asText()).isEqualTo(Path.of(caFile).resolveSibling("tls.key").toString());
            } else {
                assertThat(volume.path("secret").path("secretName").asText()).isEqualTo(Names.TLS_SECRET);
                assertThat(volume.path("secret").path("items").findValuesAsText("key"))
                        .as("kube-scheduler gets the CA, not the gateway's private key").containsExactly("ca.crt");
                assertThat(tls.has("certFile") || tls.has("keyFile")).as("no client certificate").isFalse();
            }
            for (JsonNode mount : ks.path("volumeMounts")) {
                JsonNode v = Pods.volume(sts, mount.path("name").asText());
                if (v.path("secret").path("secretName").asText().equals(Names.TLS_SECRET)) {
                    assertThat(v.path("secret").path("items").findValuesAsText("key"))
                            .as("kube-scheduler never mounts the gateway's private key").containsExactly("ca.crt");
                }
            }
            assertThat(e.path("filterVerb").asText()).isEqualTo("filter");
            assertThat(e.path("bindVerb").asText()).isEqualTo("bind");
            assertThat(e.has("prioritizeVerb")).as("the filter answers one node: nothing to prioritize").isFalse();
            assertThat(e.path("nodeCacheCapable").asBoolean()).as("simulation mode never annotates pods").isTrue();
            assertThat(e.path("ignorable").asBoolean(true)).isFalse();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, mode = EnumSource.Mode.EXCLUDE, names = "DEVICE_PLUGIN_ONLY")
    void everyResourceTheGatewayManagesIsIgnoredByKubeSchedulersFit(ValueSet set, @TempDir Path dir) throws IOException {
        Rendered r = Helm.template(set);
        NvidiaConfig nvidia = gatewayResources(r, dir);
        List<String> managed = List.of(nvidia.resourceCountName(), nvidia.resourceMemoryName(),
                nvidia.resourceMemoryPercentageName(), nvidia.resourceCoreName(), nvidia.resourcePriorityName());
        for (JsonNode c : configs(r)) {
            JsonNode resources = c.path("extenders").get(0).path("managedResources");
            List<String> names = new ArrayList<>();
            for (JsonNode m : resources) {
                names.add(m.path("name").asText());
                assertThat(m.path("ignoredByScheduler").asBoolean()).as(m.path("name").asText()).isTrue();
            }
            assertThat(names).containsExactlyInAnyOrderElementsOf(managed);
        }
        if (set == ValueSet.CUSTOM) {
            assertThat(managed).allMatch(n -> n.startsWith("example.com/"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, mode = EnumSource.Mode.EXCLUDE, names = "DEVICE_PLUGIN_ONLY")
    void extenderTimeoutOutlastsTheBindsNodeLockWait(ValueSet set) throws IOException {
        Rendered r = Helm.template(set);
        Duration wait = GoDuration.parse(Pods.env(GatewayEnvTest.gateway(r)).get("VGPU_NODE_LOCK_WAIT")).value();
        for (JsonNode c : configs(r)) {
            Duration timeout = GoDuration.parse(c.path("extenders").get(0).path("httpTimeout").asText()).value();
            assertThat(timeout).isGreaterThan(wait);
            assertThat(timeout.minus(wait)).as("room for the bind's own API calls").isGreaterThanOrEqualTo(Duration.ofSeconds(2));
        }
    }

    @Test
    void withoutTheKubeSchedulerContainerOnlyTheGatewayRuns() {
        Helm.Result result = Helm.templateRaw(List.of("--set", "scheduler.kubeScheduler.enabled=false"));
        assertThat(result.exitCode()).as(result.output()).isZero();
        Rendered r = new Rendered(Helm.parse(result.output()));
        JsonNode sts = r.one("StatefulSet", Names.SCHEDULER);
        assertThat(Pods.containerNames(sts)).containsExactly("gateway");
        assertThat(r.find("ConfigMap", Names.KUBE_SCHEDULER_CONFIG)).isEmpty();
        assertThat(r.all("ClusterRoleBinding")).extracting(b -> b.path("roleRef").path("name").asText())
                .doesNotContain("system:kube-scheduler", "system:volume-scheduler");
        assertThat(r.all("Role")).isEmpty();
        assertThat(r.find("Service", Names.SCHEDULER)).as("an outside kube-scheduler calls the Service").isPresent();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, names = {"DEFAULT", "CUSTOM"})
    void kubeSchedulerImageFollowsTheClusterVersion(ValueSet set) {
        JsonNode ks = Pods.container(Helm.template(set).one("StatefulSet", Names.SCHEDULER), "kube-scheduler");
        String registry = set == ValueSet.CUSTOM ? "registry.example.com" : "registry.k8s.io";
        assertThat(ks.path("image").asText()).isEqualTo(registry + "/kube-scheduler:v1.33.0");
    }
}
