package io.vgpu.deviceplugin.devices;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.vgpu.deviceplugin.config.ConfigurationException;
import io.vgpu.deviceplugin.core.gpu.GpuDetails;
import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.deviceplugin.core.gpu.NvmlText;
import io.vgpu.hamicore.MajorMinor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Fake GPUs from a YAML or JSON file, for clusters and tests without GPUs. The file is re-read at
 * every scan, so editing it (e.g. {@code healthy: false}) changes what the plugin reports.
 *
 * <pre>
 * driverVersion: "550.54.15"  # optional, node-wide; default: unknown
 * cudaDriverVersion: "12.4"   # optional, node-wide, quoted major.minor; default: unknown
 * gpus:
 *   - uuid: GPU-6f1e2d3c-0000-4000-8000-000000000001   # required, unique
 *     name: NVIDIA A100-SXM4-40GB                     # required (NVML product name)
 *     memoryMiB: 40960        # or memoryBytes; neither = NVML NOT_SUPPORTED (unified memory)
 *     index: 0                # default: position in the list
 *     numa: 0                 # default: unknown
 *     healthy: true           # default: true
 *     minor: 0                # /dev/nvidia&lt;minor&gt;, unique; default: the GPU's index
 *     architecture: Ampere    # go-nvlib's name (Ada Lovelace, Hopper, ...); default: unknown
 *     brand: Nvidia           # NVML's name; default: unknown
 *     cudaComputeCapability: "8.0"   # quoted major.minor; default: unknown
 *     pciBusId: "0000:07:00.0"       # PCI address (NVML's form accepted too), unique; default: unknown
 * </pre>
 *
 * Versions must be quoted: YAML would read {@code 12.10} as the number 12.1.
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
        Optional<String> driverVersion = optionalText(root, "driverVersion", where, false);
        Optional<String> cudaDriverVersion = optionalText(root, "cudaDriverVersion", where, true);
        List<GpuFacts> out = new ArrayList<>();
        Set<String> uuids = new HashSet<>();
        Set<Integer> indices = new HashSet<>();
        Set<Integer> minors = new HashSet<>();
        Set<String> addresses = new HashSet<>();
        for (int i = 0; i < gpus.size(); i++) {
            GpuFacts gpu = gpu(gpus.get(i), i, where + " gpus[" + i + "]", driverVersion, cudaDriverVersion);
            if (!uuids.add(gpu.uuid())) {
                throw new ConfigurationException(where + " lists uuid " + gpu.uuid() + " twice");
            }
            if (!indices.add(gpu.index())) {
                throw new ConfigurationException(where + " lists index " + gpu.index() + " twice");
            }
            if (!minors.add(gpu.details().minorNumber().getAsInt())) {
                throw new ConfigurationException(where + " gives two GPUs the minor number "
                        + gpu.details().minorNumber().getAsInt() + " (/dev/nvidia" + gpu.details().minorNumber().getAsInt()
                        + "); set 'minor' apart");
            }
            if (gpu.details().pciBusId().isPresent() && !addresses.add(gpu.details().pciBusId().get())) {
                throw new ConfigurationException(where + " gives two GPUs the PCI address " + gpu.details().pciBusId().get());
            }
            out.add(gpu);
        }
        return List.copyOf(out);
    }

    private static GpuFacts gpu(JsonNode n, int position, String where, Optional<String> driverVersion,
                                Optional<String> cudaDriverVersion) {
        if (n == null || !n.isObject()) {
            throw new ConfigurationException(where + " must be a mapping");
        }
        for (String nodeWide : List.of("driverVersion", "cudaDriverVersion")) {
            if (n.has(nodeWide)) {
                throw new ConfigurationException(where + "." + nodeWide + " is node-wide: set it at the top level of the file");
            }
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
        int minor = n.hasNonNull("minor") ? (int) nonNegative(n, "minor", where) : index;
        GpuDetails details = new GpuDetails(OptionalInt.of(minor), optionalText(n, "architecture", where, false),
                optionalText(n, "brand", where, false), optionalText(n, "cudaComputeCapability", where, true),
                driverVersion, cudaDriverVersion, pciAddress(n, where));
        return new GpuFacts(uuid, index, name, memory, numa, healthy, details);
    }

    /** {@code pciBusId} in DRA's form ({@code 0000:07:00.0}), NVML's form accepted; empty when absent. */
    private static Optional<String> pciAddress(JsonNode n, String where) {
        Optional<String> text = optionalText(n, "pciBusId", where, false);
        if (text.isEmpty()) {
            return text;
        }
        return Optional.of(NvmlText.pciAddress(text.get()).orElseThrow(() -> new ConfigurationException(where
                + ".pciBusId must be a PCI address like \"0000:07:00.0\", got \"" + text.get() + "\"")));
    }

    /** A non-blank string, or empty when absent; {@code majorMinor} values must read as {@code <major>.<minor>}. */
    private static Optional<String> optionalText(JsonNode n, String key, String where, boolean majorMinor) {
        JsonNode v = n.get(key);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        String example = majorMinor ? "\"9.0\"" : "\"550.54.15\"";
        if (!v.isTextual() || v.asText().isBlank()) {
            throw new ConfigurationException(where + "." + key + " must be a quoted string like " + example + ", got " + v
                    + (v.isNumber() ? " (YAML reads an unquoted 12.10 as the number 12.1)" : ""));
        }
        String text = v.asText().strip();
        if (majorMinor) {
            try {
                return Optional.of(MajorMinor.parse(text).toString());
            } catch (IllegalArgumentException e) {
                throw new ConfigurationException(where + "." + key + " must be <major>.<minor> like " + example + ", got \""
                        + text + "\"", e);
            }
        }
        return Optional.of(text);
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
