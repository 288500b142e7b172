package io.vgpu.deviceplugin.config;

import io.vgpu.deviceplugin.cdi.DriverLibraries;
import io.vgpu.state.dra.DraNames;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Where DRA mode's kubelet plugin lives and how it prepares claims (part of {@link DevicePluginConfig}).
 * The defaults are the kubelet's and the container runtimes' own paths (spec/dra-spec.md §4.1, §5.2);
 * pointing them at a temporary directory runs the plugin on a laptop.
 *
 * @param registryDir     the kubelet's plugin-watcher directory ({@code VGPU_DRA_REGISTRY_DIR},
 *                        {@code /var/lib/kubelet/plugins_registry}); the registration socket
 *                        {@code gpu.vgpu.io-reg.sock} goes there
 * @param pluginDir       this driver's directory ({@code VGPU_DRA_PLUGIN_DIR},
 *                        {@code /var/lib/kubelet/plugins/gpu.vgpu.io}); {@code dra.sock} goes there. The
 *                        kubelet dials the path the plugin reports, so it must be the same inside and
 *                        outside the agent's container
 * @param stateDir        where the checkpoint of prepared claims is kept ({@code VGPU_DRA_STATE_DIR},
 *                        default the plugin directory); must survive agent restarts
 * @param cdiDir          where per-claim CDI specs are written ({@code VGPU_DRA_CDI_DIR}, {@code /var/run/cdi}, the
 *                        runtimes' dynamic directory)
 * @param staticCdiDirs   where a static {@code nvidia-ctk cdi generate} spec is looked for
 *                        ({@code VGPU_DRA_STATIC_CDI_DIRS}, {@code /etc/cdi,/var/run/cdi})
 * @param driverLibraries {@code VGPU_DRA_DRIVER_LIBRARIES}: {@code auto} (default), {@code cdi} or {@code runtime}
 */
public record DraPluginSettings(Path registryDir, Path pluginDir, Path stateDir, Path cdiDir, List<Path> staticCdiDirs,
                                DriverLibraries.Mode driverLibraries) {

    /** The kubelet's plugin-watcher directory. */
    public static final String DEFAULT_REGISTRY_DIR = "/var/lib/kubelet/plugins_registry";
    /** The kubelet's plugin data directory for this driver. */
    public static final String DEFAULT_PLUGIN_DIR = "/var/lib/kubelet/plugins/" + DraNames.DRIVER;
    /** The runtimes' dynamic CDI directory. */
    public static final String DEFAULT_CDI_DIR = "/var/run/cdi";
    /** The runtimes' CDI directories, static first. */
    public static final String DEFAULT_STATIC_CDI_DIRS = "/etc/cdi,/var/run/cdi";

    /** Copies the list. */
    public DraPluginSettings {
        Objects.requireNonNull(registryDir, "registryDir");
        Objects.requireNonNull(pluginDir, "pluginDir");
        Objects.requireNonNull(stateDir, "stateDir");
        Objects.requireNonNull(cdiDir, "cdiDir");
        staticCdiDirs = List.copyOf(staticCdiDirs);
        Objects.requireNonNull(driverLibraries, "driverLibraries");
    }

    /** {@code <registry dir>/gpu.vgpu.io-reg.sock}: creating it registers the plugin, deleting it deregisters. */
    public Path registrationSocket() {
        return registryDir.resolve(DraNames.DRIVER + "-reg.sock");
    }

    /** {@code <plugin dir>/dra.sock}: the DRA service the kubelet calls. */
    public Path draSocket() {
        return pluginDir.resolve("dra.sock");
    }

    /** {@code <state dir>/checkpoint.json}. */
    public Path checkpointFile() {
        return stateDir.resolve("checkpoint.json");
    }

    /** Reads the {@code VGPU_DRA_*} keys; problems go to {@code r}. */
    static DraPluginSettings read(EnvReader r) {
        Path registry = absolute(r, "VGPU_DRA_REGISTRY_DIR", DEFAULT_REGISTRY_DIR);
        Path plugin = absolute(r, "VGPU_DRA_PLUGIN_DIR", DEFAULT_PLUGIN_DIR);
        Path state = absolute(r, "VGPU_DRA_STATE_DIR", plugin.toString());
        Path cdi = absolute(r, "VGPU_DRA_CDI_DIR", DEFAULT_CDI_DIR);
        List<Path> statics = r.list("VGPU_DRA_STATIC_CDI_DIRS", null, DEFAULT_STATIC_CDI_DIRS).stream().map(Path::of).toList();
        DriverLibraries.Mode libraries = r.parsed("VGPU_DRA_DRIVER_LIBRARIES", null, DriverLibraries.Mode.AUTO,
                "auto, cdi or runtime", v -> parseMode(v.strip()));
        if (registry.equals(plugin)) {
            r.problem("VGPU_DRA_PLUGIN_DIR must differ from VGPU_DRA_REGISTRY_DIR " + registry
                    + " (the kubelet would take dra.sock for a plugin to register)");
        }
        return new DraPluginSettings(registry, plugin, state, cdi, statics, libraries);
    }

    private static Path absolute(EnvReader r, String key, String defaultValue) {
        Path p = r.path(key, null, defaultValue);
        if (!p.isAbsolute()) {
            r.problem(key + "=" + p + " must be an absolute path");
        }
        return p;
    }

    private static Optional<DriverLibraries.Mode> parseMode(String v) {
        try {
            return Optional.of(DriverLibraries.Mode.valueOf(v.toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** The values for the start-up log. */
    String describe() {
        return "registry " + registryDir + ", plugin " + pluginDir + ", state " + stateDir + ", CDI " + cdiDir
                + ", static CDI " + staticCdiDirs + ", driver libraries " + driverLibraries.name().toLowerCase(Locale.ROOT);
    }
}
