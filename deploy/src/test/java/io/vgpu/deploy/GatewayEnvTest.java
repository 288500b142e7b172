package io.vgpu.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.gateway.ClusterConfig;
import io.vgpu.gateway.DebugState;
import io.vgpu.gateway.GatewayConfig;
import io.vgpu.gateway.config.ConfigKey;
import io.vgpu.gateway.config.ConfigurationException;
import io.vgpu.gateway.config.EnvReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The gateway container's environment maps 1:1 onto the gateway's settings: every {@code VGPU_} variable
 * is one of {@link GatewayConfig#KEYS} or {@link ClusterConfig#KEYS} (an unknown one stops the gateway),
 * and the gateway's own reader accepts the whole environment with the files the pod mounts.
 */
class GatewayEnvTest {

    /** Every setting the gateway knows. */
    static Set<String> knownKeys() {
        return Stream.of(GatewayConfig.KEYS, ClusterConfig.KEYS, io.vgpu.gateway.DraSettings.KEYS).flatMap(List::stream).map(ConfigKey::name)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    static JsonNode gateway(Rendered r) {
        return Pods.container(r.one("StatefulSet", Names.SCHEDULER), "gateway");
    }

    /** The gateway's configuration as the gateway itself reads it from the rendered pod. */
    record Parsed(GatewayConfig config, ClusterConfig cluster, Map<String, String> env) {
    }

    static Parsed parse(ValueSet set, Path dir) {
        Rendered r = Helm.template(set);
        JsonNode sts = r.one("StatefulSet", Names.SCHEDULER);
        JsonNode container = Pods.container(sts, "gateway");
        Map<String, String> env = MountedFiles.of(r, sts, container, dir).rewrite(Pods.env(container));
        try {
            EnvReader reader = new EnvReader(env, GatewayConfig.PREFIX);
            GatewayConfig config = GatewayConfig.read(reader);
            ClusterConfig cluster = ClusterConfig.read(reader, config == null ? "0.0.0.0" : config.bindAddress());
            io.vgpu.gateway.DraSettings.read(reader);
            reader.finish();
            return new Parsed(config, cluster, Pods.env(container));
        } catch (ConfigurationException e) {
            return fail("the gateway refuses the environment rendered for " + set + ":\n" + e.getMessage());
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, mode = EnumSource.Mode.EXCLUDE, names = "DEVICE_PLUGIN_ONLY")
    void setsOnlyVariablesTheGatewayKnows(ValueSet set) {
        Set<String> vgpu = Pods.env(gateway(Helm.template(set))).keySet().stream()
                .filter(k -> k.startsWith(GatewayConfig.PREFIX)).collect(Collectors.toCollection(TreeSet::new));
        assertThat(vgpu).as("VGPU_ variables of the gateway container").isNotEmpty();
        assertThat(knownKeys()).as("the gateway's settings (GatewayConfig, ClusterConfig, DraSettings KEYS)").containsAll(vgpu);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, mode = EnumSource.Mode.EXCLUDE, names = "DEVICE_PLUGIN_ONLY")
    void gatewayAcceptsTheRenderedEnvironmentAndFiles(ValueSet set, @TempDir Path dir) {
        Parsed p = parse(set, dir);
        GatewayConfig c = p.config();
        assertThat(c.plainHttp()).as("the API port serves HTTPS (webhooks need it)").isFalse();
        assertThat(c.tls().clientAuth()).as("/filter and /bind need kube-scheduler's client certificate")
                .isEqualTo(set.clientAuth());
        if (set.clientAuth()) {
            // the CA the gateway trusts for client certificates is the one of its own serving certificate
            assertThat(p.env().get("VGPU_TLS_CLIENT_CA_FILE")).isEqualTo("/tls/ca.crt");
            assertThat(c.tls().clientNames()).isNotEmpty();
        }
        assertThat(c.deviceConfigFile()).as("the device config is read").isNotNull();
        assertThat(c.replica()).isEqualTo(Pods.FROM_POD);
        assertThat(p.cluster().kubernetes()).isTrue();
        assertThat(p.cluster().store().members().size() + (p.cluster().store().dnsDiscovery() ? set.replicas() : 0))
                .as("every replica is found, by DNS or in the member list").isEqualTo(set.replicas());
        assertThat(c.schedulerNames()).hasSize(set.shards());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, mode = EnumSource.Mode.EXCLUDE, names = "DEVICE_PLUGIN_ONLY")
    void webhookFailurePolicyMatchesTheGatewaysOwn(ValueSet set, @TempDir Path dir) {
        Parsed p = parse(set, dir);
        JsonNode webhook = Helm.template(set).one("MutatingWebhookConfiguration", Names.WEBHOOK).path("webhooks").get(0);
        assertThat(p.config().webhookFailurePolicy().wire()).isEqualTo(webhook.path("failurePolicy").asText())
                .isEqualTo(set == ValueSet.FAILURE_IGNORE ? "Ignore" : "Fail");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, mode = EnumSource.Mode.EXCLUDE, names = "DEVICE_PLUGIN_ONLY")
    void hazelcastFindsEveryReplicaThroughTheHeadlessServiceWithAMajorityQuorum(ValueSet set, @TempDir Path dir) {
        Parsed p = parse(set, dir);
        int port = p.cluster().store().port();
        if (set == ValueSet.CUSTOM) {
            // discovery: members, the StatefulSet pods' stable names
            List<String> expected = IntStream.range(0, set.replicas())
                    .mapToObj(i -> Names.SCHEDULER + "-" + i + "." + Names.HAZELCAST + "." + ValueSet.NAMESPACE + ".svc:"
                            + port)
                    .toList();
            assertThat(p.cluster().store().members()).containsExactlyElementsOf(expected);
            assertThat(p.cluster().store().dnsDiscovery()).isFalse();
        } else {
            // the default: DNS discovery of the headless Service that publishes not-ready addresses
            assertThat(p.cluster().store().discoveryDns())
                    .isEqualTo(Names.HAZELCAST + "." + ValueSet.NAMESPACE + ".svc");
            assertThat(p.cluster().store().members()).isEmpty();
            JsonNode service = Helm.template(set).one("Service", Names.HAZELCAST).path("spec");
            assertThat(service.path("clusterIP").asText()).isEqualTo("None");
            assertThat(service.path("publishNotReadyAddresses").asBoolean()).isTrue();
        }
        int quorum = set == ValueSet.CUSTOM ? 4 : set.replicas() / 2 + 1;
        assertThat(p.cluster().store().quorumSize()).isEqualTo(quorum);
        assertThat(p.cluster().store().backupCount()).isEqualTo(set == ValueSet.CUSTOM ? 2 : 1);
        JsonNode container = gateway(Helm.template(set));
        assertThat(container.path("ports").findValuesAsText("containerPort")).contains(Integer.toString(port));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, mode = EnumSource.Mode.EXCLUDE, names = "DEVICE_PLUGIN_ONLY")
    void jvmOptionsSetTheCommonPoolParallelism(ValueSet set) {
        String options = Pods.env(gateway(Helm.template(set))).get("JDK_JAVA_OPTIONS");
        assertThat(options).contains("-Djava.util.concurrent.ForkJoinPool.common.parallelism=")
                .contains("-Djava.io.tmpdir=/tmp").contains("--add-opens java.base/sun.nio.ch=ALL-UNNAMED");
    }

    @Test
    void customValuesReachTheGatewayAsHamiMeansThem(@TempDir Path dir) {
        Parsed p = parse(ValueSet.CUSTOM, dir);
        GatewayConfig c = p.config();
        assertThat(c.schedulerNames()).containsExactly("gpu-scheduler");
        assertThat(c.forceOverwriteDefaultScheduler()).isFalse();
        assertThat(c.nodeSchedulerPolicy()).isEqualTo("spread");
        assertThat(c.gpuSchedulerPolicy()).isEqualTo("binpack,numa");
        assertThat(c.nodeLockTimeout()).isEqualTo(Duration.ofMinutes(2));
        assertThat(c.nodeLockWait()).isEqualTo(Duration.ofSeconds(20));
        assertThat(c.nodeLabelSelector()).isEqualTo(Map.of("gpu", "on", "pool", "training"));
        assertThat(c.kubeQps()).isEqualTo(100.0);
        assertThat(c.kubeBurst()).isEqualTo(150);
        assertThat(c.httpPort()).isEqualTo(8443);
        assertThat(c.metricsPort()).isEqualTo(19395);
        assertThat(c.maxInFlight()).isEqualTo(256);
        assertThat(c.shutdownTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.tls().reloadInterval()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.tls().clientNames()).containsExactly("gpu-kube-scheduler", "my-own-scheduler");
        assertThat(c.debugState()).isEqualTo(DebugState.API);
        assertThat(p.cluster().reservationTtl()).isEqualTo(Duration.ofSeconds(20));
        assertThat(p.cluster().store().clusterName()).isEqualTo("gpu-sched");
        assertThat(c.nvidia().resourceCountName()).isEqualTo("example.com/vgpu");
        assertThat(c.nvidia().gpuCorePolicy()).isEqualTo("force");
        assertThat(c.nvidia().runtimeClassName()).isEqualTo("nvidia");
    }

    @Test
    void defaultsAreTheGatewaysAndHamisDefaults(@TempDir Path dir) {
        Parsed p = parse(ValueSet.DEFAULT, dir);
        GatewayConfig c = p.config();
        assertThat(c.schedulerNames()).containsExactly("hami-scheduler");
        assertThat(c.nodeLockWait()).isEqualTo(Duration.ofSeconds(28));
        assertThat(c.nodeLockTimeout()).isEqualTo(Duration.ofMinutes(5));
        assertThat(c.metricsPort()).isEqualTo(9395);
        assertThat(c.tls().clientNames()).containsExactly(GatewayConfig.DEFAULT_CLIENT_NAME);
        assertThat(c.debugState()).as("nobody reads every pod's devices by default").isEqualTo(DebugState.OFF);
        // variables rendered only when set keep the gateway's own defaults
        Map<String, String> unset = new LinkedHashMap<>(p.env());
        assertThat(unset).doesNotContainKeys("VGPU_KUBE_QPS", "VGPU_KUBE_BURST", "VGPU_MAX_IN_FLIGHT",
                "VGPU_RESERVATION_TTL", "VGPU_NODE_LABEL_SELECTOR", "VGPU_PLAIN_HTTP", "VGPU_DEBUG_STATE",
                "VGPU_EXTENDER_CLIENT_AUTH");
    }
}
