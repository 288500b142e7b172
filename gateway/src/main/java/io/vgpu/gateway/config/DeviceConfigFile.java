package io.vgpu.gateway.config;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.vgpu.gateway.core.request.NvidiaConfig;

import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * HAMi's {@code device-config.yaml} (spec §3.2), accepted as is: the {@code nvidia:} section is mapped
 * onto {@link NvidiaConfig}. Keys this gateway does not use (the device plugin's {@code deviceSplitCount},
 * {@code migProfileAllowlist}, …) and other vendors' sections are ignored, as HAMi's scheduler ignores
 * what it does not read. A key that is absent takes the HAMi chart default ({@link NvidiaConfig#defaults()});
 * HAMi itself would leave the Go zero value, which for the resource names means "not configured", so a
 * partial file is safer here. A value of the wrong type fails start-up.
 */
public final class DeviceConfigFile {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private DeviceConfigFile() {
    }

    /** A parser for {@code VGPU_DEVICE_CONFIG_FILE}: reads and maps the file at the given path. */
    public static ValueParser<NvidiaConfig> parser() {
        return raw -> read(Parsers.readableFile().parse(raw));
    }

    /**
     * @param file the YAML file
     * @return its {@code nvidia:} section
     * @throws IllegalArgumentException when the file cannot be read or parsed, has no {@code nvidia:}
     *                                  section, or holds a value of the wrong type
     */
    public static NvidiaConfig read(Path file) {
        JsonNode root;
        try {
            root = YAML.readTree(file.toFile());
        } catch (JacksonException e) {
            throw new IllegalArgumentException("not valid YAML: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read: " + e.getMessage());
        }
        if (root == null || !root.path("nvidia").isObject()) {
            throw new IllegalArgumentException("has no nvidia: section");
        }
        return nvidia(root.get("nvidia"));
    }

    /** Maps an {@code nvidia:} section; absent keys take the chart defaults. */
    static NvidiaConfig nvidia(JsonNode section) {
        NvidiaConfig d = NvidiaConfig.defaults();
        Section s = new Section(section);
        return new NvidiaConfig(
                s.text("resourceCountName", d.resourceCountName()),
                s.text("resourceMemoryName", d.resourceMemoryName()),
                s.text("resourceMemoryPercentageName", d.resourceMemoryPercentageName()),
                s.text("resourceCoreName", d.resourceCoreName()),
                s.text("resourcePriorityName", d.resourcePriorityName()),
                s.bool("overwriteEnv", d.overwriteEnv()),
                s.integer("defaultMemory", d.defaultMemory()),
                s.integer("defaultCores", d.defaultCores()),
                s.integer("defaultGPUNum", d.defaultGPUNum()),
                s.integer("memoryFactor", d.memoryFactor()),
                s.text("gpuCorePolicy", d.gpuCorePolicy()),
                s.text("runtimeClassName", d.runtimeClassName()));
    }

    /** Typed reads of one YAML mapping; a null or absent value takes the default. */
    private record Section(JsonNode node) {

        String text(String key, String fallback) {
            return read(key, fallback, "a string", v -> v.isValueNode() ? v.asText() : null);
        }

        boolean bool(String key, boolean fallback) {
            return read(key, fallback, "true or false", v -> v.isBoolean() ? v.booleanValue() : null);
        }

        int integer(String key, int fallback) {
            return read(key, fallback, "an integer",
                    v -> v.isIntegralNumber() && v.canConvertToInt() ? v.intValue() : null);
        }

        private <T> T read(String key, T fallback, String expected, Function<JsonNode, T> convert) {
            JsonNode v = node.get(key);
            if (v == null || v.isNull()) {
                return fallback;
            }
            T out = convert.apply(v);
            if (out == null) {
                throw new IllegalArgumentException("nvidia." + key + ": expected " + expected + ", got " + v);
            }
            return out;
        }
    }
}
