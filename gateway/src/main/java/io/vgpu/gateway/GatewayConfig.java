package io.vgpu.gateway;

import io.vgpu.gateway.config.ConfigKey;
import io.vgpu.gateway.config.DeviceConfigFile;
import io.vgpu.gateway.config.EnvReader;
import io.vgpu.gateway.config.Parsers;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.core.webhook.WebhookConfig;
import io.vgpu.gateway.http.ListenerConfig;
import io.vgpu.gateway.webhook.FailurePolicy;
import io.vgpu.state.codec.GoDuration;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;

/**
 * The gateway's configuration, built once at start from environment variables with the prefix
 * {@value #PREFIX} (STYLE.md §6). Keys mirror HAMi's scheduler flags where they make sense (spec §3.1);
 * {@link #KEYS} lists them all. Immutable.
 *
 * @param schedulerNames                 {@code VGPU_SCHEDULER_NAMES}: names the webhook assigns; more than one
 *                                       shards GPU pods by UID
 * @param forceOverwriteDefaultScheduler {@code VGPU_FORCE_OVERWRITE_DEFAULT_SCHEDULER}
 * @param nodeSchedulerPolicy            {@code VGPU_NODE_SCHEDULER_POLICY}: {@code binpack} or {@code spread}
 * @param gpuSchedulerPolicy             {@code VGPU_GPU_SCHEDULER_POLICY}: a HAMi GPU policy chain, e.g. {@code spread}
 * @param nodeLockTimeout                {@code VGPU_NODE_LOCK_TIMEOUT}: age after which a node lock is stale
 * @param nodeLockWait                   {@code VGPU_NODE_LOCK_WAIT}: how long a contended bind waits for the lock
 * @param nodeLabelSelector              {@code VGPU_NODE_LABEL_SELECTOR}: only nodes with all these labels are used
 * @param kubeQps                        {@code VGPU_KUBE_QPS}
 * @param kubeBurst                      {@code VGPU_KUBE_BURST}
 * @param bindAddress                    {@code VGPU_BIND_ADDRESS}: address both listeners bind to
 * @param httpPort                       {@code VGPU_HTTP_PORT}: webhook/extender/health listener (0 = any free port)
 * @param metricsPort                    {@code VGPU_METRICS_PORT}: Prometheus listener (0 = any free port)
 * @param tls                            certificate files of the API listener; null means plain HTTP
 * @param deviceConfigFile               {@code VGPU_DEVICE_CONFIG_FILE}, null when not given
 * @param nvidia                         its {@code nvidia:} section, or the HAMi chart defaults
 * @param maxInFlight                    {@code VGPU_MAX_IN_FLIGHT}: concurrent requests per endpoint before it
 *                                       answers overloaded
 * @param webhookMaxBodyBytes            {@code VGPU_WEBHOOK_MAX_BODY_BYTES}: larger AdmissionReviews get code 413
 * @param webhookFailurePolicy           {@code VGPU_WEBHOOK_FAILURE_POLICY}: answer on internal error or overload
 * @param shutdownTimeout                {@code VGPU_SHUTDOWN_TIMEOUT}: how long SIGTERM waits for in-flight requests
 * @param replica                        this replica's name for metrics and logs ({@code POD_NAME}, else
 *                                       {@code HOSTNAME})
 * @param debugState                     {@code VGPU_DEBUG_STATE}: where {@code /debug/state} is served, if at all
 */
public record GatewayConfig(List<String> schedulerNames, boolean forceOverwriteDefaultScheduler,
                            String nodeSchedulerPolicy, String gpuSchedulerPolicy, Duration nodeLockTimeout,
                            Duration nodeLockWait, Map<String, String> nodeLabelSelector, double kubeQps, int kubeBurst,
                            String bindAddress, int httpPort, int metricsPort, ListenerConfig.Tls tls,
                            Path deviceConfigFile,
                            NvidiaConfig nvidia, int maxInFlight, long webhookMaxBodyBytes,
                            FailurePolicy webhookFailurePolicy, Duration shutdownTimeout, String replica,
                            DebugState debugState) {

    /** The prefix of every setting. */
    public static final String PREFIX = "VGPU_";

    /** The common name of the client certificate the chart issues to kube-scheduler. */
    public static final String DEFAULT_CLIENT_NAME = "vgpu-kube-scheduler";

    private static final String CLIENT_AUTH_REQUIRED = "required";
    private static final String CLIENT_AUTH_NONE = "none";
    private static final Duration DAY = Duration.ofDays(1);
    private static final long MIB = 1024 * 1024;

    /** {@code VGPU_SCHEDULER_NAMES}. */
    public static final ConfigKey<List<String>> SCHEDULER_NAMES = ConfigKey.optional("VGPU_SCHEDULER_NAMES",
            Parsers.names(), "hami-scheduler",
            "comma list of scheduler names the webhook assigns to GPU pods; more than one shards pods by UID hash");
    /** {@code VGPU_FORCE_OVERWRITE_DEFAULT_SCHEDULER}. */
    public static final ConfigKey<Boolean> FORCE_OVERWRITE_DEFAULT_SCHEDULER = ConfigKey.optional(
            "VGPU_FORCE_OVERWRITE_DEFAULT_SCHEDULER", Parsers.bool(), "true",
            "whether the webhook may replace schedulerName default-scheduler"
                    + " (HAMi --force-overwrite-default-scheduler)");
    /** {@code VGPU_NODE_SCHEDULER_POLICY}. */
    public static final ConfigKey<String> NODE_SCHEDULER_POLICY = ConfigKey.optional("VGPU_NODE_SCHEDULER_POLICY",
            Parsers.oneOf("binpack", "spread"), "binpack", "default node policy (HAMi --node-scheduler-policy)");
    /** {@code VGPU_GPU_SCHEDULER_POLICY}. */
    public static final ConfigKey<String> GPU_SCHEDULER_POLICY = ConfigKey.optional("VGPU_GPU_SCHEDULER_POLICY",
            Parsers.chainOf("binpack", "spread", "topology-aware", "mutex", "numa"), "spread",
            "default GPU policy, a comma chain such as binpack,numa (HAMi --gpu-scheduler-policy)");
    /** {@code VGPU_NODE_LOCK_TIMEOUT}. */
    public static final ConfigKey<Duration> NODE_LOCK_TIMEOUT = ConfigKey.optional("VGPU_NODE_LOCK_TIMEOUT",
            Parsers.duration(Duration.ofSeconds(1), DAY), "5m",
            "age after which a node lock is stale (HAMi --node-lock-timeout; Go duration)");
    /** {@code VGPU_NODE_LOCK_WAIT}. */
    public static final ConfigKey<Duration> NODE_LOCK_WAIT = ConfigKey.optional("VGPU_NODE_LOCK_WAIT",
            Parsers.duration(Duration.ZERO, Duration.ofMinutes(10)), "28s",
            "how long a contended bind waits for the node lock; keep below kube-scheduler's extender httpTimeout");
    /** {@code VGPU_NODE_LABEL_SELECTOR}. */
    public static final ConfigKey<Map<String, String>> NODE_LABEL_SELECTOR = ConfigKey.optional(
            "VGPU_NODE_LABEL_SELECTOR", Parsers.labels(), null,
            "k=v,k2=v2: only nodes carrying all these labels are scheduled (HAMi --node-label-selector)");
    /** {@code VGPU_KUBE_QPS}. */
    public static final ConfigKey<Double> KUBE_QPS = ConfigKey.optional("VGPU_KUBE_QPS",
            Parsers.decimal(1, 100_000), "200", "Kubernetes API client requests per second");
    /** {@code VGPU_KUBE_BURST}. */
    public static final ConfigKey<Integer> KUBE_BURST = ConfigKey.optional("VGPU_KUBE_BURST",
            Parsers.integer(1, 1_000_000), "400", "Kubernetes API client burst");
    /** {@code VGPU_BIND_ADDRESS}. */
    public static final ConfigKey<String> BIND_ADDRESS = ConfigKey.optional("VGPU_BIND_ADDRESS",
            Parsers.text(), "0.0.0.0", "address the API and metrics listeners bind to");
    /** {@code VGPU_HTTP_PORT}. */
    public static final ConfigKey<Integer> HTTP_PORT = ConfigKey.optional("VGPU_HTTP_PORT",
            Parsers.integer(0, 65_535), "443",
            "port of /webhook, /filter, /bind, /healthz, /readyz (0 = any free port)");
    /** {@code VGPU_METRICS_PORT}. */
    public static final ConfigKey<Integer> METRICS_PORT = ConfigKey.optional("VGPU_METRICS_PORT",
            Parsers.integer(0, 65_535), "9395", "port of /metrics, plain HTTP (0 = any free port)");
    /** {@code VGPU_TLS_CERT_FILE}. */
    public static final ConfigKey<Path> TLS_CERT_FILE = ConfigKey.optional("VGPU_TLS_CERT_FILE",
            Parsers.readableFile(), null, "PEM certificate (chain) of the API listener; reloaded when it changes");
    /** {@code VGPU_TLS_KEY_FILE}. */
    public static final ConfigKey<Path> TLS_KEY_FILE = ConfigKey.optional("VGPU_TLS_KEY_FILE",
            Parsers.readableFile(), null, "PEM private key of the API listener; reloaded when it changes");
    /** {@code VGPU_TLS_RELOAD_INTERVAL}. */
    public static final ConfigKey<Duration> TLS_RELOAD_INTERVAL = ConfigKey.optional("VGPU_TLS_RELOAD_INTERVAL",
            Parsers.duration(Duration.ofMillis(100), Duration.ofHours(1)), "10s",
            "how often the certificate files are checked for changes");
    /** {@code VGPU_PLAIN_HTTP}. */
    public static final ConfigKey<Boolean> PLAIN_HTTP = ConfigKey.optional("VGPU_PLAIN_HTTP", Parsers.bool(), "false",
            "serve the API listener over plain HTTP (only when explicitly true;"
                    + " the API server needs HTTPS for webhooks)");
    /** {@code VGPU_DEVICE_CONFIG_FILE}. */
    public static final ConfigKey<NvidiaConfig> DEVICE_CONFIG_FILE = ConfigKey.optional("VGPU_DEVICE_CONFIG_FILE",
            DeviceConfigFile.parser(), null, "HAMi device-config.yaml; its nvidia: section is used as is");
    /** {@code VGPU_MAX_IN_FLIGHT}. */
    public static final ConfigKey<Integer> MAX_IN_FLIGHT = ConfigKey.optional("VGPU_MAX_IN_FLIGHT",
            Parsers.integer(1, 1_000_000), "512", "concurrent requests per endpoint before it answers overloaded");
    /** {@code VGPU_WEBHOOK_MAX_BODY_BYTES}. */
    public static final ConfigKey<Long> WEBHOOK_MAX_BODY_BYTES = ConfigKey.optional("VGPU_WEBHOOK_MAX_BODY_BYTES",
            Parsers.bytes(1024, 64 * MIB), "7Mi",
            "largest AdmissionReview accepted (larger: code 413, as controller-runtime)");
    /** {@code VGPU_WEBHOOK_FAILURE_POLICY}. */
    public static final ConfigKey<FailurePolicy> WEBHOOK_FAILURE_POLICY = ConfigKey.optional(
            "VGPU_WEBHOOK_FAILURE_POLICY", FailurePolicy::of, "Ignore",
            "Ignore (admit unchanged) or Fail (refuse) on internal error or overload; match the chart's failurePolicy");
    /** {@code VGPU_SHUTDOWN_TIMEOUT}. */
    public static final ConfigKey<Duration> SHUTDOWN_TIMEOUT = ConfigKey.optional("VGPU_SHUTDOWN_TIMEOUT",
            Parsers.duration(Duration.ZERO, Duration.ofMinutes(10)), "20s",
            "how long SIGTERM waits for in-flight requests before closing");

    /** {@code VGPU_TLS_CLIENT_CA_FILE}. */
    public static final ConfigKey<Path> TLS_CLIENT_CA_FILE = ConfigKey.optional("VGPU_TLS_CLIENT_CA_FILE",
            Parsers.readableFile(), null, "PEM CA certificate(s) that sign kube-scheduler's client certificate;"
                    + " /filter and /bind accept only clients verified against it; reloaded when it changes");
    /** {@code VGPU_EXTENDER_CLIENT_NAMES}. */
    public static final ConfigKey<List<String>> EXTENDER_CLIENT_NAMES = ConfigKey.optional(
            "VGPU_EXTENDER_CLIENT_NAMES", Parsers.names(), DEFAULT_CLIENT_NAME,
            "comma list of the client certificate common names (subject CN) allowed to call /filter and /bind");
    /** {@code VGPU_EXTENDER_CLIENT_AUTH}. */
    public static final ConfigKey<String> EXTENDER_CLIENT_AUTH = ConfigKey.optional("VGPU_EXTENDER_CLIENT_AUTH",
            Parsers.oneOf(CLIENT_AUTH_REQUIRED, CLIENT_AUTH_NONE), CLIENT_AUTH_REQUIRED,
            "required: /filter and /bind need kube-scheduler's client certificate (HTTPS only); none: INSECURE,"
                    + " anyone who reaches the port may filter and bind");
    /** {@code VGPU_DEBUG_STATE}. */
    public static final ConfigKey<DebugState> DEBUG_STATE = ConfigKey.optional("VGPU_DEBUG_STATE",
            DebugState::of, "off", "where GET /debug/state (every pod's name, UID and devices) is served: off, api"
                    + " (the API port, behind the extender's client certificate check) or metrics (the plain-HTTP"
                    + " metrics port, unauthenticated: local test harnesses only)");

    /** Every key, in documentation order. */
    public static final List<ConfigKey<?>> KEYS = List.of(SCHEDULER_NAMES, FORCE_OVERWRITE_DEFAULT_SCHEDULER,
            NODE_SCHEDULER_POLICY, GPU_SCHEDULER_POLICY, NODE_LOCK_TIMEOUT, NODE_LOCK_WAIT, NODE_LABEL_SELECTOR,
            KUBE_QPS, KUBE_BURST, BIND_ADDRESS, HTTP_PORT, METRICS_PORT, TLS_CERT_FILE, TLS_KEY_FILE,
            TLS_RELOAD_INTERVAL, PLAIN_HTTP, TLS_CLIENT_CA_FILE, EXTENDER_CLIENT_NAMES, EXTENDER_CLIENT_AUTH,
            DEVICE_CONFIG_FILE, MAX_IN_FLIGHT, WEBHOOK_MAX_BODY_BYTES, WEBHOOK_FAILURE_POLICY, SHUTDOWN_TIMEOUT,
            DEBUG_STATE);

    /** Copies collections; requires the values every listener needs. */
    public GatewayConfig {
        schedulerNames = List.copyOf(schedulerNames);
        nodeLabelSelector = nodeLabelSelector == null ? Map.of() : Map.copyOf(nodeLabelSelector);
        Objects.requireNonNull(nvidia, "nvidia");
        Objects.requireNonNull(webhookFailurePolicy, "webhookFailurePolicy");
        Objects.requireNonNull(bindAddress, "bindAddress");
        Objects.requireNonNull(replica, "replica");
        Objects.requireNonNull(debugState, "debugState");
    }

    /**
     * Reads the gateway configuration from {@code env} and fails on any problem, including unknown
     * {@value #PREFIX} keys. Use {@link #read(EnvReader)} instead when other modules read their own
     * keys from the same environment.
     *
     * @throws io.vgpu.gateway.config.ConfigurationException listing every problem
     */
    public static GatewayConfig fromEnv(Map<String, String> env) {
        EnvReader reader = new EnvReader(env, PREFIX);
        GatewayConfig config = read(reader);
        reader.finish();
        return config;
    }

    /**
     * Reads the gateway's keys from {@code reader}; problems are recorded in it, and the result is
     * meaningful only when {@link EnvReader#finish()} then succeeds.
     *
     * @return the configuration, or null when a problem was recorded
     */
    public static GatewayConfig read(EnvReader reader) {
        List<String> schedulerNames = reader.get(SCHEDULER_NAMES);
        Boolean force = reader.get(FORCE_OVERWRITE_DEFAULT_SCHEDULER);
        String nodePolicy = reader.get(NODE_SCHEDULER_POLICY);
        String gpuPolicy = reader.get(GPU_SCHEDULER_POLICY);
        Duration lockTimeout = reader.get(NODE_LOCK_TIMEOUT);
        Duration lockWait = reader.get(NODE_LOCK_WAIT);
        Map<String, String> selector = reader.get(NODE_LABEL_SELECTOR);
        Double qps = reader.get(KUBE_QPS);
        Integer burst = reader.get(KUBE_BURST);
        String bind = reader.get(BIND_ADDRESS);
        Integer httpPort = reader.get(HTTP_PORT);
        Integer metricsPort = reader.get(METRICS_PORT);
        ListenerConfig.Tls tls = tls(reader);
        NvidiaConfig nvidia = reader.get(DEVICE_CONFIG_FILE);
        Integer maxInFlight = reader.get(MAX_IN_FLIGHT);
        Long maxBody = reader.get(WEBHOOK_MAX_BODY_BYTES);
        FailurePolicy failurePolicy = reader.get(WEBHOOK_FAILURE_POLICY);
        Duration shutdown = reader.get(SHUTDOWN_TIMEOUT);
        DebugState debugState = reader.get(DEBUG_STATE);
        if (debugState == DebugState.API && tls != null && !tls.clientAuth()) {
            reader.problem(DEBUG_STATE.name() + "=api serves every pod's devices to the clients /filter and /bind accept,"
                    + " and with " + EXTENDER_CLIENT_AUTH.name() + "=none that is anyone: set "
                    + TLS_CLIENT_CA_FILE.name() + ", or " + DEBUG_STATE.name() + "=off");
        }
        if (httpPort != null && httpPort != 0 && httpPort.equals(metricsPort)) {
            reader.problem(HTTP_PORT.name() + " and " + METRICS_PORT.name() + " are both " + httpPort);
        }
        if (reader.hasProblems()) {
            return null;
        }
        String deviceFile = reader.raw(DEVICE_CONFIG_FILE.name());
        return new GatewayConfig(schedulerNames, force, nodePolicy, gpuPolicy, lockTimeout, lockWait, selector, qps,
                burst, bind, httpPort, metricsPort, tls, deviceFile == null ? null : Path.of(deviceFile),
                nvidia == null ? NvidiaConfig.defaults() : nvidia, maxInFlight, maxBody, failurePolicy, shutdown,
                replica(reader), debugState);
    }

    private static ListenerConfig.Tls tls(EnvReader reader) {
        Path cert = reader.get(TLS_CERT_FILE);
        Path key = reader.get(TLS_KEY_FILE);
        Duration interval = reader.get(TLS_RELOAD_INTERVAL);
        Path clientCa = reader.get(TLS_CLIENT_CA_FILE);
        List<String> clientNames = reader.get(EXTENDER_CLIENT_NAMES);
        String clientAuth = reader.get(EXTENDER_CLIENT_AUTH);
        boolean plain = Boolean.TRUE.equals(reader.get(PLAIN_HTTP));
        boolean certGiven = reader.raw(TLS_CERT_FILE.name()) != null;
        boolean keyGiven = reader.raw(TLS_KEY_FILE.name()) != null;
        boolean caGiven = reader.raw(TLS_CLIENT_CA_FILE.name()) != null;
        if (plain) {
            if (certGiven || keyGiven || caGiven) {
                reader.problem(PLAIN_HTTP.name() + "=true conflicts with " + TLS_CERT_FILE.name() + "/"
                        + TLS_KEY_FILE.name() + "/" + TLS_CLIENT_CA_FILE.name() + ": choose HTTPS or plain HTTP");
            }
            return null; // plain HTTP has no client certificates: local use only
        }
        if (!certGiven || !keyGiven) {
            reader.problem("HTTPS needs both " + TLS_CERT_FILE.name() + " and " + TLS_KEY_FILE.name()
                    + " (or set " + PLAIN_HTTP.name() + "=true to serve plain HTTP)");
            return null;
        }
        boolean required = !CLIENT_AUTH_NONE.equals(clientAuth);
        if (required && !caGiven) {
            reader.problem("/filter and /bind need kube-scheduler's client certificate: set " + TLS_CLIENT_CA_FILE.name()
                    + " to the CA that signed it (or " + EXTENDER_CLIENT_AUTH.name() + "=none, INSECURE: anyone who"
                    + " reaches the port could bind pods)");
            return null;
        }
        if (!required && caGiven) {
            reader.problem(EXTENDER_CLIENT_AUTH.name() + "=none conflicts with " + TLS_CLIENT_CA_FILE.name()
                    + ": choose whether clients must present a certificate");
            return null;
        }
        if (cert == null || key == null || interval == null || clientNames == null || (required && clientCa == null)) {
            return null;
        }
        return required ? new ListenerConfig.Tls(cert, key, interval, clientCa, clientNames)
                : new ListenerConfig.Tls(cert, key, interval);
    }

    private static String replica(EnvReader reader) {
        String pod = reader.raw("POD_NAME");
        if (pod != null) {
            return pod;
        }
        String host = reader.raw("HOSTNAME");
        return host == null ? "local" : host;
    }

    /** What the API listener needs: where it binds, its TLS files and client check, how long it drains. */
    public ListenerConfig listener() {
        return new ListenerConfig(bindAddress, httpPort, tls, shutdownTimeout);
    }

    /** Whether the API listener serves plain HTTP. */
    public boolean plainHttp() {
        return tls == null;
    }

    /** What the mutating webhook's decision needs. */
    public WebhookConfig webhookConfig() {
        return new WebhookConfig(schedulerNames, forceOverwriteDefaultScheduler, nvidia);
    }

    /**
     * The effective configuration for the start-up log, one {@code KEY=value} per setting. Nothing here
     * is secret (files are named, never read into the log); a future secret key must print as {@code ***}.
     */
    public String redacted() {
        StringJoiner out = new StringJoiner(" ");
        out.add(SCHEDULER_NAMES + "=" + String.join(",", schedulerNames));
        out.add(FORCE_OVERWRITE_DEFAULT_SCHEDULER + "=" + forceOverwriteDefaultScheduler);
        out.add(NODE_SCHEDULER_POLICY + "=" + nodeSchedulerPolicy);
        out.add(GPU_SCHEDULER_POLICY + "=" + gpuSchedulerPolicy);
        out.add(NODE_LOCK_TIMEOUT + "=" + GoDuration.format(nodeLockTimeout));
        out.add(NODE_LOCK_WAIT + "=" + GoDuration.format(nodeLockWait));
        StringJoiner selector = new StringJoiner(",");
        nodeLabelSelector.forEach((k, v) -> selector.add(k + "=" + v));
        out.add(NODE_LABEL_SELECTOR + "=" + selector);
        out.add(KUBE_QPS + "=" + kubeQps);
        out.add(KUBE_BURST + "=" + kubeBurst);
        out.add(BIND_ADDRESS + "=" + bindAddress);
        out.add(HTTP_PORT + "=" + httpPort);
        out.add(METRICS_PORT + "=" + metricsPort);
        if (tls == null) {
            out.add(PLAIN_HTTP + "=true");
            out.add(EXTENDER_CLIENT_AUTH + "=" + CLIENT_AUTH_NONE); // plain HTTP checks no client: local use only
        } else {
            out.add(TLS_CERT_FILE + "=" + tls.certFile());
            out.add(TLS_KEY_FILE + "=" + tls.keyFile());
            out.add(TLS_RELOAD_INTERVAL + "=" + GoDuration.format(tls.reloadInterval()));
            if (tls.clientAuth()) {
                out.add(TLS_CLIENT_CA_FILE + "=" + tls.clientCaFile());
                out.add(EXTENDER_CLIENT_NAMES + "=" + String.join(",", tls.clientNames()));
            } else {
                out.add(EXTENDER_CLIENT_AUTH + "=" + CLIENT_AUTH_NONE);
            }
        }
        out.add(DEVICE_CONFIG_FILE + "=" + (deviceConfigFile == null ? "" : deviceConfigFile));
        out.add(MAX_IN_FLIGHT + "=" + maxInFlight);
        out.add(WEBHOOK_MAX_BODY_BYTES + "=" + webhookMaxBodyBytes);
        out.add(WEBHOOK_FAILURE_POLICY + "=" + webhookFailurePolicy.wire());
        out.add(SHUTDOWN_TIMEOUT + "=" + GoDuration.format(shutdownTimeout));
        out.add(DEBUG_STATE + "=" + debugState.wire());
        out.add("replica=" + replica);
        return out.toString();
    }
}
