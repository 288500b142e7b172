package io.vgpu.deviceplugin.devices;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.vgpu.deviceplugin.config.ConfigurationException;
import io.vgpu.deviceplugin.core.GpuFacts;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Fake GPUs from a YAML or JSON file, for clusters and tests without GPUs. The file is re-read at
 * every scan, so editing it (e.g. {@code healthy: false}) changes what the plugin reports.
 *
 * <pre>
 * gpus:
 *   - uuid: GPU-6f1e2d3c-0000-4000-8000-000000000001   # required, unique
 *     name: NVIDIA A100-SXM4-40GB                     # required (NVML product name)
 *     memoryMiB: 40960        # or memoryBytes; neither = NVML NOT_SUPPORTED (unified memory)
 *     index: 0                # default: position in the list
 *     numa: 0                 # default: unknown
 *     healthy: true           # default: true
 * </pre>
 */
public final class FakeGpuSource implements DeviceSource {

    private static final YAMLMapper YAML = new YAMLMapper();
    private static final long MIB = 1024L * 1024L;

    private final Path file;

    /** A source over {@code file}; the file is validated now so that a bad one fails start-up. */
    public FakeGpuSource(Path file) {
        this.file = file;
        scan();
    }

    @Override
    public List<GpuFacts> scan() {
        try {
            return parse(Files.readString(file), file.toString());
        } catch (IOException e) {
            throw new ConfigurationException("cannot read the fake GPU file " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Parses a fake GPU description.
     *
     * @throws ConfigurationException naming the first bad entry
     */
    public static List<GpuFacts> parse(String text, String where) {
        JsonNode root;
        try {
            root = YAML.readTree(text);
        } catch (JsonProcessingException e) {
            throw new ConfigurationException(where + " is not valid YAML/JSON: " + e.getOriginalMessage(), e);
        }
        JsonNode gpus = root == null ? null : root.get("gpus");
        if (gpus == null || !gpus.isArray()) {
            throw new ConfigurationException(where + " must have a list 'gpus'");
        }
        List<GpuFacts> out = new ArrayList<>();
        Set<String> uuids = new HashSet<>();
        Set<Integer> indices = new HashSet<>();
        for (int i = 0; i < gpus.size(); i++) {
            GpuFacts gpu = gpu(gpus.get(i), i, where + " gpus[" + i + "]");
            if (!uuids.add(gpu.uuid())) {
                throw new ConfigurationException(where + " lists uuid " + gpu.uuid() + " twice");
            }
            if (!indices.add(gpu.index())) {
                throw new ConfigurationException(where + " lists index " + gpu.index() + " twice");
            }
            out.add(gpu);
        }
        return List.copyOf(out);
    }

    private static GpuFacts gpu(JsonNode n, int position, String where) {
        if (n == null || !n.isObject()) {
            throw new ConfigurationException(where + " must be a mapping");
        }
        String uuid = text(n, "uuid", where);
        String name = text(n, "name", where);
        OptionalLong memory = OptionalLong.empty();
        if (n.hasNonNull("memoryBytes")) {
            memory = OptionalLong.of(nonNegative(n, "memoryBytes", where));
        } else if (n.hasNonNull("memoryMiB")) {
            memory = OptionalLong.of(Math.multiplyExact(nonNegative(n, "memoryMiB", where), MIB));
        }
        int index = n.hasNonNull("index") ? (int) nonNegative(n, "index", where) : position;
        OptionalInt numa = n.hasNonNull("numa") ? OptionalInt.of((int) nonNegative(n, "numa", where)) : OptionalInt.empty();
        boolean healthy = true;
        if (n.hasNonNull("healthy")) {
            if (!n.get("healthy").isBoolean()) {
                throw new ConfigurationException(where + ".healthy must be true or false");
            }
            healthy = n.get("healthy").asBoolean();
        }
        return new GpuFacts(uuid, index, name, memory, numa, healthy);
    }

    private static String text(JsonNode n, String key, String where) {
        JsonNode v = n.get(key);
        if (v == null || !v.isTextual() || v.asText().isBlank()) {
            throw new ConfigurationException(where + "." + key + " is required");
        }
        return v.asText().strip();
    }

    private static long nonNegative(JsonNode n, String key, String where) {
        JsonNode v = n.get(key);
        if (!v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < 0 || (!key.startsWith("memory") && v.asLong() > Integer.MAX_VALUE)) {
            throw new ConfigurationException(where + "." + key + " must be a non-negative integer, got " + v);
        }
        return v.asLong();
    }

    @Override
    public String describe() {
        return "fake:" + file;
    }

    @Override
    public void close() {
        // nothing held
    }
}
