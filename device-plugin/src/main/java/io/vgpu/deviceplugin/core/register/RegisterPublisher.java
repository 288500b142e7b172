package io.vgpu.deviceplugin.core.register;
import io.vgpu.deviceplugin.core.outcome.Stages;
import io.vgpu.deviceplugin.core.pending.PendingPodRules;
import io.vgpu.deviceplugin.core.outcome.Outcome;

import io.vgpu.deviceplugin.core.port.ClusterAccess;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.model.GpuDevice;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Writes {@code hami.io/node-nvidia-register} (and, with topology scores on, {@code hami.io/node-nvidia-score}
 * in the same patch) only when it changed (spec §3.1, §3.4, pain point 7):
 *
 * <pre>
 *  encode ─ equals the last value written ───────────────────────► UNCHANGED (no API call)
 *         └ GET node ─ annotation already equals it ─────────────► UNCHANGED (remembered)
 *                    └ merge patch the annotation ───────────────► WRITTEN (remembered)
 *  any API error ────────────────────────────────────────────────► FAILED (retry later)
 * </pre>
 *
 * The first publication after a start compares with the node's current value, so a restart does not
 * rewrite an identical annotation. Never fails its stage. Thread-safe (one publication at a time is
 * the caller's job: the register loop is sequential).
 */
public final class RegisterPublisher {

    private final ClusterAccess cluster;
    private final String node;
    private volatile Map<String, String> lastWritten;

    /** A publisher for node {@code node}; nothing is remembered yet. */
    public RegisterPublisher(ClusterAccess cluster, String node) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.node = Objects.requireNonNull(node, "node");
    }

    /** Publishes {@code devices} (already in their stable order). */
    public CompletionStage<Result> publish(List<GpuDevice> devices) {
        return publish(devices, "");
    }

    /**
     * Publishes {@code devices} and, when {@code pairScores} is not empty, the pair-score annotation
     * with them; unchanged means both values are already there.
     */
    public CompletionStage<Result> publish(List<GpuDevice> devices, String pairScores) {
        String encoded = NodeRegisterCodec.encode(devices);
        Map<String, String> wanted = new LinkedHashMap<>();
        wanted.put(HamiAnnotations.NODE_NVIDIA_REGISTER, encoded);
        if (!pairScores.isEmpty()) {
            wanted.put(HamiAnnotations.NODE_NVIDIA_SCORE, pairScores);
        }
        if (wanted.equals(lastWritten)) {
            return CompletableFuture.completedFuture(new Result(Outcome.UNCHANGED, encoded, ""));
        }
        return Stages.fold(Stages.call(() -> cluster.node(node)),
                found -> {
                    if (found.isEmpty()) {
                        return failed(encoded, PendingPodRules.nodeNotFound(node));
                    }
                    Map<String, String> current = found.get().annotations();
                    if (wanted.entrySet().stream().allMatch(e -> e.getValue().equals(current.get(e.getKey())))) {
                        lastWritten = wanted;
                        return CompletableFuture.completedFuture(new Result(Outcome.UNCHANGED, encoded, ""));
                    }
                    return write(wanted, encoded);
                },
                error -> failed(encoded, error));
    }

    private CompletionStage<Result> write(Map<String, String> wanted, String encoded) {
        return Stages.fold(Stages.call(() -> cluster.patchNodeAnnotations(node, wanted)),
                ok -> {
                    lastWritten = wanted;
                    return CompletableFuture.completedFuture(new Result(Outcome.WRITTEN, encoded, ""));
                },
                error -> failed(encoded, error));
    }

    private static CompletionStage<Result> failed(String encoded, String error) {
        return CompletableFuture.completedFuture(new Result(Outcome.FAILED, encoded, error));
    }

    /** What a publication did. */
    public enum Outcome {
        /** The annotation already held this value. */
        UNCHANGED,
        /** The annotation was written. */
        WRITTEN,
        /** The API failed; try again later. */
        FAILED
    }

    /**
     * @param outcome what happened
     * @param value   the encoded annotation value
     * @param error   the API error for {@link Outcome#FAILED}, else ""
     */
    public record Result(Outcome outcome, String value, String error) {
    }
}
