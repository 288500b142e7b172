package io.vgpu.deviceplugin.core.mode;

import io.vgpu.state.dra.DraNames;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * How the node agent offers the node's GPUs (DESIGN.md §8): never both, or a card would be sold twice.
 */
public enum AgentMode {
    /** HAMi's wire: kubelet device plugin, register annotation, node lock (the default). */
    DEVICE_PLUGIN("device-plugin"),
    /** The DRA driver {@code gpu.vgpu.io}: a ResourceSlice and the kubelet DRA plugin. */
    DRA(DraNames.MODE_DRA);

    private final String wire;

    AgentMode(String wire) {
        this.wire = wire;
    }

    /** The setting's and the label's spelling: {@code device-plugin} or {@code dra}. */
    public String wire() {
        return wire;
    }

    /** The mode a setting names ({@code device-plugin} or {@code dra}, any case); empty for anything else. */
    public static Optional<AgentMode> parse(String text) {
        String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        for (AgentMode m : values()) {
            if (m.wire.equals(t)) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }

    /**
     * The mode a node must be in: its label {@code vgpu.io/mode} wins ({@code dra} is DRA mode, any other
     * value device-plugin mode); without the label, the agent's own setting.
     */
    public static AgentMode desired(Map<String, String> nodeLabels, AgentMode local) {
        String label = nodeLabels.get(DraNames.MODE_LABEL);
        if (label == null) {
            return local;
        }
        return DraNames.MODE_DRA.equals(label) ? DRA : DEVICE_PLUGIN;
    }

    @Override
    public String toString() {
        return this == DRA ? "DRA mode" : "device-plugin mode";
    }
}
