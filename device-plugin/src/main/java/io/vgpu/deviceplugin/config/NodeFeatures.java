package io.vgpu.deviceplugin.config;

import io.vgpu.deviceplugin.core.mig.MigStrategy;
import io.vgpu.deviceplugin.health.HealthRecovery;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The node agent's optional HAMi features, read from the environment next to {@link DevicePluginConfig}
 * (whose unknown-key check knows {@link #KEYS}).
 *
 * @param topologyScore publish {@code hami.io/node-nvidia-score} ({@code VGPU_ENABLE_TOPOLOGY_SCORE} /
 *                      HAMi's {@code ENABLE_TOPOLOGY_SCORE}; the chart sets it for the {@code topology-aware}
 *                      GPU policy), default false
 * @param recovery      whether GPUs marked unhealthy by a non-fatal XID come back ({@code VGPU_HEALTH_*}), default off
 * @param migStrategy   NVIDIA's static MIG strategy ({@code VGPU_MIG_STRATEGY} / {@code MIG_STRATEGY}, the plugin's
 *                      {@code --mig-strategy}), default {@code none}
 */
public record NodeFeatures(boolean topologyScore, HealthRecovery recovery, MigStrategy migStrategy) {

    /** The {@code VGPU_*} keys read here. */
    public static final List<String> KEYS = List.of("VGPU_ENABLE_TOPOLOGY_SCORE", "VGPU_HEALTH_RECOVERY",
            "VGPU_HEALTH_RECOVERY_QUIET", "VGPU_HEALTH_PROBE_INTERVAL", "VGPU_HEALTH_FATAL_XIDS", "VGPU_MIG_STRATEGY");

    /** Requires the recovery settings and the strategy. */
    public NodeFeatures {
        Objects.requireNonNull(recovery, "recovery");
        Objects.requireNonNull(migStrategy, "migStrategy");
    }

    /** Every feature off, as HAMi's defaults. */
    public static NodeFeatures defaults() {
        return new NodeFeatures(false, HealthRecovery.OFF, MigStrategy.NONE);
    }

    /**
     * Reads the features.
     *
     * @throws ConfigurationException listing every bad value
     */
    public static NodeFeatures fromEnv(Map<String, String> env) {
        EnvReader r = new EnvReader(env);
        boolean topology = r.bool("VGPU_ENABLE_TOPOLOGY_SCORE", "ENABLE_TOPOLOGY_SCORE", false);
        boolean recover = r.bool("VGPU_HEALTH_RECOVERY", null, false);
        Duration quiet = r.duration("VGPU_HEALTH_RECOVERY_QUIET", HealthRecovery.OFF.quietPeriod());
        Duration probe = r.duration("VGPU_HEALTH_PROBE_INTERVAL", HealthRecovery.OFF.probeInterval());
        if (probe.isZero() || probe.isNegative()) {
            r.problem("VGPU_HEALTH_PROBE_INTERVAL must be positive, got " + probe);
        }
        SortedSet<Long> fatal = new TreeSet<>();
        for (String xid : r.list("VGPU_HEALTH_FATAL_XIDS", null,
                HealthRecovery.DEFAULT_FATAL_XIDS.stream().map(String::valueOf).collect(Collectors.joining(",")))) {
            try {
                long value = Long.parseLong(xid.strip());
                if (value <= 0) {
                    throw new NumberFormatException();
                }
                fatal.add(value);
            } catch (NumberFormatException e) {
                r.problem("VGPU_HEALTH_FATAL_XIDS holds \"" + xid.strip() + "\", not a positive XID");
            }
        }
        MigStrategy strategy = r.parsed("VGPU_MIG_STRATEGY", "MIG_STRATEGY", MigStrategy.NONE, "none, single or mixed",
                MigStrategy::parse);
        r.validateValues();
        return new NodeFeatures(topology, new HealthRecovery(recover, quiet, probe, fatal), strategy);
    }
}
