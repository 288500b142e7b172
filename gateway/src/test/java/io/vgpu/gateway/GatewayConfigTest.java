package io.vgpu.gateway;

import io.vgpu.gateway.config.ConfigurationException;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.http.ListenerConfig;
import io.vgpu.gateway.webhook.FailurePolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Named.named;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class GatewayConfigTest {

    @TempDir
    static Path dir;

    static final Map<String, String> PLAIN = Map.of("VGPU_PLAIN_HTTP", "true");

    static Map<String, String> env(Map<String, String> base, String... kv) {
        Map<String, String> env = new HashMap<>(base);
        for (int i = 0; i < kv.length; i += 2) {
            env.put(kv[i], kv[i + 1]);
        }
        return env;
    }

    @Test
    void defaultsMirrorHamiFlagsAndTheChart() {
        GatewayConfig c = GatewayConfig.fromEnv(env(PLAIN, "HOSTNAME", "gw-host"));
        assertThat(c.schedulerNames()).containsExactly("hami-scheduler");
        assertThat(c.forceOverwriteDefaultScheduler()).isTrue();
        assertThat(c.nodeSchedulerPolicy()).isEqualTo("binpack");
        assertThat(c.gpuSchedulerPolicy()).isEqualTo("spread");
        assertThat(c.nodeLockTimeout()).isEqualTo(Duration.ofMinutes(5));
        assertThat(c.nodeLockWait()).isEqualTo(Duration.ofSeconds(28));
        assertThat(c.nodeLabelSelector()).isEmpty();
        assertThat(c.kubeQps()).isEqualTo(200.0);
        assertThat(c.kubeBurst()).isEqualTo(400);
        assertThat(c.bindAddress()).isEqualTo("0.0.0.0");
        assertThat(c.httpPort()).isEqualTo(443);
        assertThat(c.metricsPort()).isEqualTo(9395);
        assertThat(c.plainHttp()).isTrue();
        assertThat(c.nvidia()).isEqualTo(NvidiaConfig.defaults());
        assertThat(c.maxInFlight()).isEqualTo(512);
        assertThat(c.webhookMaxBodyBytes()).isEqualTo(7L * 1024 * 1024);
        assertThat(c.webhookFailurePolicy()).isEqualTo(FailurePolicy.IGNORE);
        assertThat(c.shutdownTimeout()).isEqualTo(Duration.ofSeconds(20));
        assertThat(c.replica()).isEqualTo("gw-host");
    }

    static Stream<Arguments> validValues() throws IOException {
        Path cert = Files.writeString(dir.resolve("tls.crt"), "cert");
        Path key = Files.writeString(dir.resolve("tls.key"), "key");
        Path devices = Files.writeString(dir.resolve("device-config.yaml"), "nvidia:\n  memoryFactor: 2\n");
        Path ca = Files.writeString(dir.resolve("ca.crt"), "ca");
        return Stream.of(
                valid("sharded scheduler names", env(PLAIN, "VGPU_SCHEDULER_NAMES", " s-a, s-b ,s-c"),
                        GatewayConfig::schedulerNames, List.of("s-a", "s-b", "s-c")),
                valid("force flag off", env(PLAIN, "VGPU_FORCE_OVERWRITE_DEFAULT_SCHEDULER", "FALSE"),
                        GatewayConfig::forceOverwriteDefaultScheduler, false),
                valid("spread nodes", env(PLAIN, "VGPU_NODE_SCHEDULER_POLICY", "spread"),
                        GatewayConfig::nodeSchedulerPolicy, "spread"),
                valid("GPU policy chain", env(PLAIN, "VGPU_GPU_SCHEDULER_POLICY", "binpack,numa"),
                        GatewayConfig::gpuSchedulerPolicy, "binpack,numa"),
                valid("Go duration lock timeout", env(PLAIN, "VGPU_NODE_LOCK_TIMEOUT", "1h30m"),
                        GatewayConfig::nodeLockTimeout, Duration.ofMinutes(90)),
                valid("lock wait in ms", env(PLAIN, "VGPU_NODE_LOCK_WAIT", "100ms"),
                        GatewayConfig::nodeLockWait, Duration.ofMillis(100)),
                valid("label selector", env(PLAIN, "VGPU_NODE_LABEL_SELECTOR", "gpu=on,zone=a"),
                        GatewayConfig::nodeLabelSelector, Map.of("gpu", "on", "zone", "a")),
                valid("fractional QPS", env(PLAIN, "VGPU_KUBE_QPS", "50.5"), GatewayConfig::kubeQps, 50.5),
                valid("ports", env(PLAIN, "VGPU_HTTP_PORT", "8443", "VGPU_METRICS_PORT", "9000"),
                        c -> List.of(c.httpPort(), c.metricsPort()), List.of(8443, 9000)),
                valid("both ports 0 (tests)", env(PLAIN, "VGPU_HTTP_PORT", "0", "VGPU_METRICS_PORT", "0"),
                        c -> List.of(c.httpPort(), c.metricsPort()), List.of(0, 0)),
                valid("HTTPS from files, kube-scheduler's client CA", Map.of("VGPU_TLS_CERT_FILE", cert.toString(),
                                "VGPU_TLS_KEY_FILE", key.toString(), "VGPU_TLS_RELOAD_INTERVAL", "30s",
                                "VGPU_TLS_CLIENT_CA_FILE", ca.toString()), GatewayConfig::tls,
                        new ListenerConfig.Tls(cert, key, Duration.ofSeconds(30), ca, List.of("vgpu-kube-scheduler"))),
                valid("allowed client names", Map.of("VGPU_TLS_CERT_FILE", cert.toString(), "VGPU_TLS_KEY_FILE",
                                key.toString(), "VGPU_TLS_CLIENT_CA_FILE", ca.toString(), "VGPU_EXTENDER_CLIENT_NAMES",
                                "ks-a, ks-b"), c -> c.tls().clientNames(), List.of("ks-a", "ks-b")),
                valid("HTTPS without client authentication (insecure opt-out)", Map.of("VGPU_TLS_CERT_FILE",
                                cert.toString(), "VGPU_TLS_KEY_FILE", key.toString(), "VGPU_EXTENDER_CLIENT_AUTH", "none"),
                        GatewayConfig::tls, new ListenerConfig.Tls(cert, key, Duration.ofSeconds(10))),
                valid("debug state off by default", env(PLAIN), GatewayConfig::debugState, DebugState.OFF),
                valid("debug state behind the client check", env(PLAIN, "VGPU_DEBUG_STATE", "api"),
                        GatewayConfig::debugState, DebugState.API),
                valid("device config file", env(PLAIN, "VGPU_DEVICE_CONFIG_FILE", devices.toString()),
                        c -> c.nvidia().memoryFactor(), 2),
                valid("body limit with suffix", env(PLAIN, "VGPU_WEBHOOK_MAX_BODY_BYTES", "512Ki"),
                        GatewayConfig::webhookMaxBodyBytes, 512L * 1024),
                valid("failure policy Fail", env(PLAIN, "VGPU_WEBHOOK_FAILURE_POLICY", "Fail"),
                        GatewayConfig::webhookFailurePolicy, FailurePolicy.FAIL),
                valid("empty value means default", env(PLAIN, "VGPU_HTTP_PORT", ""), GatewayConfig::httpPort, 443),
                valid("POD_NAME names the replica", env(PLAIN, "POD_NAME", "gw-0", "HOSTNAME", "h"),
                        GatewayConfig::replica, "gw-0"));
    }

    static <T> Arguments valid(String name, Map<String, String> env, Function<GatewayConfig, T> read, T expected) {
        return arguments(named(name, env), read, expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("validValues")
    void parsesValidValues(Map<String, String> env, Function<GatewayConfig, Object> read, Object expected) {
        assertThat(read.apply(GatewayConfig.fromEnv(env))).isEqualTo(expected);
    }

    static Stream<Arguments> invalidValues() {
        return Stream.of(
                invalid("not a boolean", env(PLAIN, "VGPU_FORCE_OVERWRITE_DEFAULT_SCHEDULER", "yes"),
                        "VGPU_FORCE_OVERWRITE_DEFAULT_SCHEDULER=\"yes\": expected true or false"),
                invalid("duplicate scheduler name", env(PLAIN, "VGPU_SCHEDULER_NAMES", "a,b,a"),
                        "VGPU_SCHEDULER_NAMES=\"a,b,a\": \"a\" is listed twice"),
                invalid("blank scheduler name", env(PLAIN, "VGPU_SCHEDULER_NAMES", "a,,b"), "empty name"),
                invalid("unknown node policy", env(PLAIN, "VGPU_NODE_SCHEDULER_POLICY", "packed"),
                        "VGPU_NODE_SCHEDULER_POLICY=\"packed\": expected one of [binpack, spread]"),
                invalid("unknown GPU policy token", env(PLAIN, "VGPU_GPU_SCHEDULER_POLICY", "spread,fast"),
                        "\"fast\" is not one of"),
                invalid("duration without unit", env(PLAIN, "VGPU_NODE_LOCK_TIMEOUT", "300"), "missing unit"),
                invalid("duration too short", env(PLAIN, "VGPU_NODE_LOCK_TIMEOUT", "10ms"),
                        "expected a duration between 1s and 24h0m0s"),
                invalid("label without value separator", env(PLAIN, "VGPU_NODE_LABEL_SELECTOR", "gpu"),
                        "expected key=value pairs"),
                invalid("port out of range", env(PLAIN, "VGPU_HTTP_PORT", "70000"),
                        "VGPU_HTTP_PORT=\"70000\": expected an integer between 0 and 65535"),
                invalid("port not a number", env(PLAIN, "VGPU_METRICS_PORT", "http"), "expected an integer"),
                invalid("same port twice", env(PLAIN, "VGPU_HTTP_PORT", "9395"),
                        "VGPU_HTTP_PORT and VGPU_METRICS_PORT are both 9395"),
                invalid("QPS zero", env(PLAIN, "VGPU_KUBE_QPS", "0"), "expected a number between"),
                invalid("in-flight zero", env(PLAIN, "VGPU_MAX_IN_FLIGHT", "0"), "VGPU_MAX_IN_FLIGHT"),
                invalid("body limit garbage", env(PLAIN, "VGPU_WEBHOOK_MAX_BODY_BYTES", "7MB"),
                        "expected a byte count"),
                invalid("failure policy in lower case", env(PLAIN, "VGPU_WEBHOOK_FAILURE_POLICY", "ignore"),
                        "expected Fail or Ignore"),
                invalid("no TLS and no plain HTTP", Map.of(), "HTTPS needs both VGPU_TLS_CERT_FILE and VGPU_TLS_KEY_FILE"),
                invalid("cert without key", Map.of("VGPU_TLS_CERT_FILE", "/etc/hosts"), "HTTPS needs both"),
                invalid("plain HTTP and TLS files", env(PLAIN, "VGPU_TLS_CERT_FILE", "/etc/hosts",
                        "VGPU_TLS_KEY_FILE", "/etc/hosts"), "conflicts with"),
                invalid("missing cert file", Map.of("VGPU_TLS_CERT_FILE", "/no/such/tls.crt", "VGPU_TLS_KEY_FILE",
                        "/etc/hosts"), "VGPU_TLS_CERT_FILE=\"/no/such/tls.crt\": no readable file at this path"),
                invalid("HTTPS without kube-scheduler's client CA", Map.of("VGPU_TLS_CERT_FILE", "/etc/hosts",
                        "VGPU_TLS_KEY_FILE", "/etc/hosts"), "/filter and /bind need kube-scheduler's client"
                        + " certificate: set VGPU_TLS_CLIENT_CA_FILE"),
                invalid("client CA with client authentication off", Map.of("VGPU_TLS_CERT_FILE", "/etc/hosts",
                        "VGPU_TLS_KEY_FILE", "/etc/hosts", "VGPU_TLS_CLIENT_CA_FILE", "/etc/hosts",
                        "VGPU_EXTENDER_CLIENT_AUTH", "none"), "VGPU_EXTENDER_CLIENT_AUTH=none conflicts with"),
                invalid("plain HTTP and a client CA", env(PLAIN, "VGPU_TLS_CLIENT_CA_FILE", "/etc/hosts"),
                        "conflicts with"),
                invalid("unknown client authentication", env(PLAIN, "VGPU_EXTENDER_CLIENT_AUTH", "optional"),
                        "expected one of [none, required]"),
                invalid("debug state on", env(PLAIN, "VGPU_DEBUG_STATE", "on"), "must be off, api or metrics"),
                invalid("debug state on the API port that checks no client", Map.of("VGPU_TLS_CERT_FILE", "/etc/hosts",
                        "VGPU_TLS_KEY_FILE", "/etc/hosts", "VGPU_EXTENDER_CLIENT_AUTH", "none", "VGPU_DEBUG_STATE",
                        "api"), "VGPU_DEBUG_STATE=api serves every pod's devices"),
                invalid("missing device config", env(PLAIN, "VGPU_DEVICE_CONFIG_FILE", "/no/such.yaml"),
                        "VGPU_DEVICE_CONFIG_FILE=\"/no/such.yaml\": no readable file"),
                invalid("unknown VGPU_ key", env(PLAIN, "VGPU_HTTP_PROT", "8443"),
                        "VGPU_HTTP_PROT is not a known setting"));
    }

    static Arguments invalid(String name, Map<String, String> env, String message) {
        return arguments(named(name, env), message);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidValues")
    void failsFastNamingTheBadValue(Map<String, String> env, String message) {
        assertThatThrownBy(() -> GatewayConfig.fromEnv(env)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(message);
    }

    @Test
    void reportsEveryProblemAtOnce() {
        Map<String, String> env = Map.of("VGPU_HTTP_PORT", "-1", "VGPU_KUBE_BURST", "many", "VGPU_TYPO", "1",
                "VGPU_OTHER_TYPO", "2", "UNRELATED", "ignored");
        assertThatThrownBy(() -> GatewayConfig.fromEnv(env)).isInstanceOfSatisfying(ConfigurationException.class, e -> {
            assertThat(e.problems()).hasSize(6);
            assertThat(e.problems().get(0)).startsWith("VGPU_KUBE_BURST=\"many\"");
            assertThat(e.problems().get(1)).startsWith("VGPU_HTTP_PORT=\"-1\"");
            assertThat(e.problems().get(2)).startsWith("HTTPS needs both");
            assertThat(e.problems()).contains("VGPU_OTHER_TYPO is not a known setting", "VGPU_TYPO is not a known setting");
            assertThat(e.problems().get(5)).startsWith("known settings: ").contains("VGPU_HTTP_PORT");
            assertThat(e.getMessage()).startsWith("invalid configuration (6 problems):");
        });
    }

    @Test
    void keysAreDocumentedAndUnique() {
        assertThat(GatewayConfig.KEYS).extracting(k -> k.name()).doesNotHaveDuplicates()
                .allMatch(n -> n.startsWith(GatewayConfig.PREFIX));
        assertThat(GatewayConfig.KEYS).allMatch(k -> !k.description().isBlank());
    }

    @Test
    void redactedNamesEverySettingOnce() {
        String line = GatewayConfig.fromEnv(env(PLAIN, "VGPU_NODE_LABEL_SELECTOR", "gpu=on")).redacted();
        assertThat(line).contains("VGPU_SCHEDULER_NAMES=hami-scheduler", "VGPU_NODE_LOCK_TIMEOUT=5m0s",
                "VGPU_NODE_LABEL_SELECTOR=gpu=on", "VGPU_PLAIN_HTTP=true", "VGPU_WEBHOOK_FAILURE_POLICY=Ignore");
        for (var key : GatewayConfig.KEYS) {
            if (!key.name().startsWith("VGPU_TLS_") && !key.name().equals("VGPU_EXTENDER_CLIENT_NAMES")) {
                assertThat(line).as(key.name()).contains(key.name() + "=");
            }
        }
    }
}
