package io.vgpu.state.codec;

import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.MigProfile;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The node registration annotations of HAMi v2.10 (spec §6.1), read by the scheduler and written by
 * the device plugin.
 *
 * <ul>
 *   <li>{@code hami.io/node-nvidia-register}: a JSON array of devices ({@link #decode(String)},
 *       {@link #encode(List)});</li>
 *   <li>{@code hami.io/node-nvidia-score}: JSON pair scores ({@link #decodePairScores(String)});</li>
 *   <li>the legacy colon/comma format other vendors still use ({@link #decodeLegacy(String)},
 *       {@link #encodeLegacy(List)}).</li>
 * </ul>
 *
 * <p>Every method is pure and thread-safe. Decoders never throw on bad input: they return a
 * {@link Decoded.Err} whose message is HAMi's where HAMi's is pinned (for example
 * {@code no gpu found on node}); a JSON syntax error's text is Jackson's, prefixed {@code invalid JSON: }.
 */
public final class NodeRegisterCodec {

    /** Error when the node has no register annotation. */
    public static final String MISSING_ANNOTATION = "annos not found " + HamiAnnotations.NODE_NVIDIA_REGISTER;
    /** Error when the register annotation decodes to no device. */
    public static final String NO_GPU = "no gpu found on node";

    private NodeRegisterCodec() {
    }

    /**
     * Decodes the register annotation value as the scheduler does: unknown keys ignored, absent keys
     * zero ({@code mode} absent is "", not {@code hami-core}), and an empty array (or {@code null})
     * rejected with {@value #NO_GPU}.
     */
    public static Decoded<List<GpuDevice>> decode(String registerAnnotation) {
        return RegisterJson.readDevices(registerAnnotation)
                .flatMap(devices -> devices.isEmpty() ? Decoded.err(NO_GPU) : Decoded.ok(devices));
    }

    /**
     * Reads a node's NVIDIA registration from its annotations (HAMi {@code GetNodeDevices}): the register
     * annotation must be present ({@value #MISSING_ANNOTATION}) and decode to at least one device; when
     * the pair-score annotation is present it must decode too, or the whole node is rejected. Pair
     * scores are kept only for registered devices (first entry per UUID).
     */
    public static Decoded<NodeRegistration> read(Map<String, String> nodeAnnotations) {
        String register = nodeAnnotations == null ? null : nodeAnnotations.get(HamiAnnotations.NODE_NVIDIA_REGISTER);
        if (register == null) {
            return Decoded.err(MISSING_ANNOTATION);
        }
        return decode(register).flatMap(devices -> {
            String scores = nodeAnnotations.get(HamiAnnotations.NODE_NVIDIA_SCORE);
            if (scores == null) {
                return Decoded.ok(new NodeRegistration(devices, Map.of()));
            }
            return decodePairScores(scores).map(all -> new NodeRegistration(devices, attach(devices, all)));
        });
    }

    private static Map<String, Map<String, Integer>> attach(List<GpuDevice> devices, Map<String, Map<String, Integer>> all) {
        Map<String, Map<String, Integer>> out = new LinkedHashMap<>();
        for (GpuDevice d : devices) {
            Map<String, Integer> scores = all.get(d.id());
            if (scores != null) {
                out.putIfAbsent(d.id(), scores);
            }
        }
        return out;
    }

    /**
     * Decodes {@code hami.io/node-nvidia-score} ({@code [{"uuid":"GPU-a","score":{"GPU-b":100}}]}) into
     * {@code uuid -> (other uuid -> score)}; {@code null} decodes to no scores; a repeated UUID keeps its
     * first entry.
     */
    public static Decoded<Map<String, Map<String, Integer>>> decodePairScores(String pairScoreAnnotation) {
        return RegisterJson.readPairScores(pairScoreAnnotation);
    }

    /**
     * Encodes {@code hami.io/node-nvidia-score} as the HAMi device plugin writes it:
     * {@code [{"uuid":"GPU-a","score":{"GPU-b":60,…}},…]} in the map's order, each score map's keys sorted
     * (Go's map encoding). {@link #decodePairScores} reads it back.
     */
    public static String encodePairScores(Map<String, Map<String, Integer>> scores) {
        return RegisterJson.writePairScores(scores);
    }

    /**
     * Encodes devices exactly as the HAMi device plugin writes the register annotation (Go
     * {@code json.Marshal}, every field omitempty, order id, index, count, devmem, devcore, type, numa,
     * mode, migProfiles, health; Go's string escaping). An empty list encodes to {@code []}. A MIG
     * profile without placements is written with {@code "placements":[]}.
     */
    public static String encode(List<GpuDevice> devices) {
        return RegisterJson.writeDevices(devices);
    }

    /** Encodes one MIG profile in its compact wire form (all fields, never {@code instanceCount}). */
    public static String encodeMigProfile(MigProfile profile) {
        return RegisterJson.writeProfile(new StringBuilder(), profile).toString();
    }

    /**
     * Decodes the legacy colon/comma format with HAMi's exact errors (spec §6.1), e.g.
     * {@code node annotation missing device separator} or
     * {@code invalid memory field: strconv.ParseInt: parsing "x": invalid syntax}. Seven-field entries
     * get index 0 and mode {@code hami-core}; {@code :} alone decodes to no device.
     */
    public static Decoded<List<GpuDevice>> decodeLegacy(String annotation) {
        return LegacyNodeDevices.decode(annotation);
    }

    /** Encodes the legacy format, always 9 fields per device, each device followed by {@code :}. */
    public static String encodeLegacy(List<GpuDevice> devices) {
        return LegacyNodeDevices.encode(devices);
    }
}
