package io.vgpu.deviceplugin.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.vgpu.deviceplugin.core.mig.MigAllowlist;
import io.vgpu.deviceplugin.core.register.NvidiaSettings;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * HAMi's device config ({@code /device-config.yaml}, ConfigMap {@code <scheduler>-device}, shared with
 * the scheduler): the plugin reads the {@code nvidia:} keys it uses, with HAMi's chart defaults for the
 * ones missing (HAMi itself would crash on a missing key). Every other key (the scheduler's, other
 * vendors') is ignored.
 */
public final class DeviceConfigFile {

    private static final YAMLMapper YAML = new YAMLMapper();

    private DeviceConfigFile() {
    }

    /**
     * Reads the file; a missing file means the defaults.
     *
     * @throws ConfigurationException when the file cannot be read or a value has the wrong type
     */
    public static NvidiaSettings read(Path file) {
        try {
            return parse(Files.readString(file), file.toString());
        } catch (NoSuchFileException absent) {
            return NvidiaSettings.defaults();
        } catch (IOException e) {
            throw new ConfigurationException("cannot read the device config " + file + ": " + e.getMessage(), e);
        }
    }

    /** Parses YAML (or JSON) text; {@code where} names it in errors. */
    public static NvidiaSettings parse(String text, String where) {
        JsonNode root;
        try {
            root = YAML.readTree(text);
        } catch (JsonProcessingException e) {
            throw new ConfigurationException(where + " is not valid YAML: " + e.getOriginalMessage(), e);
        }
        NvidiaSettings d = NvidiaSettings.defaults();
        if (root == null || root.isMissingNode() || root.isNull()) {
            return d;
        }
        if (!root.isObject()) {
            throw new ConfigurationException(where + " must be a YAML mapping");
        }
        JsonFields nvidia = new JsonFields(root, where).object("nvidia");
        if (nvidia == null) {
            return d;
        }
        int split = orElse(nvidia.integer("deviceSplitCount"), d.deviceSplitCount());
        if (split < 1) {
            throw new ConfigurationException(where + " nvidia.deviceSplitCount must be at least 1, got " + split);
        }
        double memoryScaling = orElse(nvidia.number("deviceMemoryScaling"), d.deviceMemoryScaling());
        double coreScaling = orElse(nvidia.number("deviceCoreScaling"), d.deviceCoreScaling());
        if (memoryScaling <= 0 || coreScaling <= 0) {
            throw new ConfigurationException(where + " nvidia.deviceMemoryScaling and deviceCoreScaling must be positive");
        }
        return new NvidiaSettings(
                orElse(nvidia.text("resourceCountName"), d.resourceCountName()),
                split, memoryScaling, coreScaling,
                orElse(nvidia.longValue("preConfiguredDeviceMemory"), d.preConfiguredDeviceMemory()),
                orElse(nvidia.textOrNumber("libCudaLogLevel"), d.libCudaLogLevel()),
                orElse(nvidia.bool("enableNumaTopology"), d.enableNumaTopology()),
                orElse(nvidia.bool("disableCoreLimit"), d.disableCoreLimit()));
    }

    /**
     * The {@code nvidia.migProfileAllowlist} of the file ({@code [{models:[…], profiles:[…]}]}); empty
     * when the file or the key is missing.
     *
     * @throws ConfigurationException when the list is malformed (HAMi's scheduler refuses such a file too)
     */
    public static MigAllowlist readMigAllowlist(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException absent) {
            return MigAllowlist.EMPTY;
        } catch (IOException e) {
            throw new ConfigurationException("cannot read the device config " + file + ": " + e.getMessage(), e);
        }
        return parseMigAllowlist(text, file.toString());
    }

    /** {@link #readMigAllowlist} of YAML (or JSON) text; {@code where} names it in errors. */
    public static MigAllowlist parseMigAllowlist(String text, String where) {
        JsonNode root;
        try {
            root = YAML.readTree(text);
        } catch (JsonProcessingException e) {
            throw new ConfigurationException(where + " is not valid YAML: " + e.getOriginalMessage(), e);
        }
        JsonFields nvidia = root == null || !root.isObject() ? null : new JsonFields(root, where).object("nvidia");
        JsonNode list = nvidia == null ? null : nvidia.get("migProfileAllowlist");
        if (list == null) {
            return MigAllowlist.EMPTY;
        }
        if (!list.isArray()) {
            throw new ConfigurationException(where + " nvidia.migProfileAllowlist must be a list, got " + list);
        }
        List<MigAllowlist.Entry> entries = new ArrayList<>();
        int i = 0;
        for (JsonNode e : list) {
            if (!e.isObject()) {
                throw new ConfigurationException(where + " nvidia.migProfileAllowlist[" + i + "] must be an object");
            }
            JsonFields entry = new JsonFields(e, where + " nvidia.migProfileAllowlist[" + i + "]");
            entries.add(new MigAllowlist.Entry(entry.texts("models"), entry.texts("profiles")));
            i++;
        }
        MigAllowlist allowlist = new MigAllowlist(entries);
        allowlist.problem().ifPresent(p -> {
            throw new ConfigurationException(where + " nvidia." + p);
        });
        return allowlist;
    }

    private static <T> T orElse(T value, T fallback) {
        return value != null ? value : fallback;
    }
}
