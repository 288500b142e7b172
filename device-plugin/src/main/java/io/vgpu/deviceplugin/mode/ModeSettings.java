package io.vgpu.deviceplugin.mode;

import io.vgpu.deviceplugin.core.mode.AgentMode;

import java.time.Duration;
import java.util.Objects;

/**
 * The mode controller's settings.
 *
 * @param node       this node
 * @param local      the mode of a node without the {@code vgpu.io/mode} label ({@code VGPU_MODE})
 * @param draEnabled DRA mode may be served at all ({@code VGPU_DRA_ENABLED}: the chart mounts its directories)
 * @param retry      how often a refused switch is tried again ({@code VGPU_MODE_RETRY})
 */
public record ModeSettings(String node, AgentMode local, boolean draEnabled, Duration retry) {

    /** Requires every part. */
    public ModeSettings {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(local, "local");
        Objects.requireNonNull(retry, "retry");
    }
}
