package io.vgpu.deviceplugin.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vgpu.deviceplugin.core.register.NodeConfigEntry;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * HAMi's per-node config file ({@code /config/config.json}, ConfigMap {@code <release>-device-plugin}
 * key {@code config.json}):
 * {@code {"nodeconfig":[{"name":"<node>","operatingmode":…,"devicesplitcount":…,…}]}}, keys matched
 * case-insensitively like Go's JSON decoder; {@code migstrategy} is read and ignored, as in HAMi.
 */
public final class NodeConfigFile {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private NodeConfigFile() {
    }

    /**
     * Reads the file.
     *
     * @return the entries, or empty when the file does not exist (HAMi then registers without a mode,
     *         see {@code NodeOverrides.withoutNodeConfig})
     * @throws ConfigurationException when the file exists but cannot be read or parsed
     */
    public static Optional<List<NodeConfigEntry>> read(Path file) {
        try {
            return Optional.of(parse(Files.readString(file)));
        } catch (NoSuchFileException absent) {
            return Optional.empty();
        } catch (IOException e) {
            throw new ConfigurationException("cannot read the node config " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Parses the file's text.
     *
     * @throws ConfigurationException on bad JSON or a value of the wrong type
     */
    public static List<NodeConfigEntry> parse(String json) {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new ConfigurationException("the node config is not valid JSON: " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new ConfigurationException("the node config must be a JSON object with a nodeconfig list");
        }
        JsonNode list = new JsonFields(root, "config.json").get("nodeconfig");
        List<NodeConfigEntry> out = new ArrayList<>();
        if (list == null) {
            return out;
        }
        if (!list.isArray()) {
            throw new ConfigurationException("config.json nodeconfig must be a list");
        }
        for (int i = 0; i < list.size(); i++) {
            JsonNode e = list.get(i);
            if (!e.isObject()) {
                throw new ConfigurationException("config.json nodeconfig[" + i + "] must be an object");
            }
            out.add(entry(new JsonFields(e, "config.json nodeconfig[" + i + "]")));
        }
        return out;
    }

    private static NodeConfigEntry entry(JsonFields f) {
        JsonFields filter = f.object("filterdevices");
        f.text("migstrategy");
        return new NodeConfigEntry(f.text("name"), f.text("operatingmode"), f.integer("devicesplitcount"),
                f.number("devicememoryscaling"), f.number("devicecorescaling"), f.longValue("preconfigureddevicememory"),
                f.text("libcudaloglevel"), f.bool("enablenumatopology"),
                filter == null ? List.of() : filter.texts("uuid"), filter == null ? List.of() : filter.integers("index"),
                f.bool("enablegetpreferredallocation"));
    }
}
