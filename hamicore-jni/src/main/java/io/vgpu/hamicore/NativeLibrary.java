package io.vgpu.hamicore;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Optional;

/**
 * Loads {@code libvgpuhamicore.so}, the JNI library, once per JVM.
 *
 * <p>Where from, in order:
 * <ol>
 *   <li>the system property {@value #PATH_PROPERTY}, when set and not blank;</li>
 *   <li>the environment variable {@value #PATH_ENV}, when set and not blank;</li>
 *   <li>the copy packaged in this jar under {@code /native/<os>-<arch>/}, extracted to a fresh
 *       private temporary directory (mode 0700) that is deleted when the JVM exits.</li>
 * </ol>
 * Any failure is a {@link NativeLoadException} whose message names the source and the fix.
 * Loading blocks (file I/O and the dynamic linker); it is thread-safe and idempotent.
 */
public final class NativeLibrary {

    /** System property naming the library file to load instead of the packaged one. */
    public static final String PATH_PROPERTY = "vgpu.hamicore.lib";
    /** Environment variable naming the library file, used when the property is unset. */
    public static final String PATH_ENV = "VGPU_HAMICORE_LIB";
    static final String FILE_NAME = "libvgpuhamicore.so";

    private static Path loadedFrom;

    private NativeLibrary() {
    }

    /**
     * Loads the library unless already loaded.
     *
     * @return the file that was loaded
     * @throws NativeLoadException when it cannot be found, extracted or linked
     */
    public static synchronized Path load() {
        if (loadedFrom == null) {
            Path file = locate(System.getProperty(PATH_PROPERTY), System.getenv(PATH_ENV));
            try {
                System.load(file.toString());
            } catch (UnsatisfiedLinkError | SecurityException e) {
                throw new NativeLoadException("cannot load the hamicore JNI library " + file + ": " + e.getMessage()
                        + " (set -D" + PATH_PROPERTY + " or " + PATH_ENV + " to a " + FILE_NAME
                        + " built for this platform)", e);
            }
            loadedFrom = file;
        }
        return loadedFrom;
    }

    /** The file loaded by {@link #load()}, empty before the first successful load. */
    public static synchronized Optional<Path> loadedFrom() {
        return Optional.ofNullable(loadedFrom);
    }

    /** The configured file when property or env names one, else the extracted packaged copy. */
    static Path locate(String property, String env) {
        Optional<String> configured = configuredPath(property, env);
        if (configured.isPresent()) {
            Path file = Path.of(configured.get()).toAbsolutePath();
            if (!Files.isRegularFile(file)) {
                throw new NativeLoadException(PATH_PROPERTY + "/" + PATH_ENV + " names " + file
                        + ", which is not a readable file", null);
            }
            return file;
        }
        return extractPackaged(resourcePath(System.getProperty("os.name"), System.getProperty("os.arch")));
    }

    /** The property wins over the environment; blank values count as unset. */
    static Optional<String> configuredPath(String property, String env) {
        if (property != null && !property.isBlank()) {
            return Optional.of(property.trim());
        }
        if (env != null && !env.isBlank()) {
            return Optional.of(env.trim());
        }
        return Optional.empty();
    }

    /** {@code /native/linux-x86_64/libvgpuhamicore.so} and friends; only Linux is built. */
    static String resourcePath(String osName, String osArch) {
        String os = osName == null ? "" : osName.toLowerCase(Locale.ROOT);
        String arch = osArch == null ? "" : osArch.toLowerCase(Locale.ROOT);
        if (!os.startsWith("linux")) {
            throw new NativeLoadException("the hamicore JNI library is built for Linux only, not " + osName, null);
        }
        String cpu = switch (arch) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> throw new NativeLoadException("no hamicore JNI library for CPU architecture " + osArch
                    + "; set -D" + PATH_PROPERTY + " or " + PATH_ENV, null);
        };
        return "/native/linux-" + cpu + "/" + FILE_NAME;
    }

    private static Path extractPackaged(String resource) {
        try (InputStream in = NativeLibrary.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new NativeLoadException("this jar has no " + resource + "; build it on this platform or set -D"
                        + PATH_PROPERTY + " or " + PATH_ENV, null);
            }
            Path dir = Files.createTempDirectory("vgpu-hamicore-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            // deleteOnExit runs in reverse registration order: the file goes first, then its directory
            dir.toFile().deleteOnExit();
            Path file = dir.resolve(FILE_NAME);
            file.toFile().deleteOnExit();
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            return file;
        } catch (IOException | UnsupportedOperationException e) {
            throw new NativeLoadException("cannot extract " + resource + " to a private temporary directory: " + e
                    + "; set -D" + PATH_PROPERTY + " or " + PATH_ENV + " to an installed copy", e);
        }
    }
}
