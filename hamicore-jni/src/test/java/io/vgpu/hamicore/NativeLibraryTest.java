package io.vgpu.hamicore;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Where the JNI library comes from, and the typed error when it cannot come from anywhere. */
class NativeLibraryTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "property ''{0}'', env ''{1}'' -> ''{2}''")
    @CsvSource(nullValues = "null", value = {
            "/a/lib.so, /b/lib.so, /a/lib.so",
            "null, /b/lib.so, /b/lib.so",
            "'  ', /b/lib.so, /b/lib.so",
            "null, null, null",
            "'', '', null"})
    void propertyWinsOverEnvironmentAndBlankMeansUnset(String property, String env, String expected) {
        assertThat(NativeLibrary.configuredPath(property, env)).isEqualTo(Optional.ofNullable(expected));
    }

    @Test
    void aConfiguredPathThatIsNotAFileIsATypedError() {
        String missing = dir.resolve("nope.so").toString();
        assertThatThrownBy(() -> NativeLibrary.locate(missing, null))
                .isInstanceOf(NativeLoadException.class)
                .hasMessageContaining(NativeLibrary.PATH_PROPERTY)
                .hasMessageContaining("nope.so");
    }

    @Test
    void aConfiguredFileIsUsedAsIs() {
        String built = System.getProperty("vgpu.test.jniLib");
        assertThat(NativeLibrary.locate(null, built)).isEqualTo(Path.of(built).toAbsolutePath());
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"Linux, amd64, /native/linux-x86_64/libvgpuhamicore.so",
            "Linux, x86_64, /native/linux-x86_64/libvgpuhamicore.so",
            "Linux, aarch64, /native/linux-aarch64/libvgpuhamicore.so"})
    void packagedLibraryIsLookedUpPerPlatform(String os, String arch, String resource) {
        assertThat(NativeLibrary.resourcePath(os, arch)).isEqualTo(resource);
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"Mac OS X, aarch64", "Windows 11, amd64", "Linux, sparcv9"})
    void unsupportedPlatformsAreTypedErrors(String os, String arch) {
        assertThatThrownBy(() -> NativeLibrary.resourcePath(os, arch)).isInstanceOf(NativeLoadException.class);
    }

    @Test
    void withoutConfigurationThePackagedCopyIsExtractedToAPrivateDirectory() throws Exception {
        Path loaded = NativeLibrary.load();
        assertThat(NativeLibrary.loadedFrom()).contains(loaded);
        if (System.getProperty(NativeLibrary.PATH_PROPERTY) == null && System.getenv(NativeLibrary.PATH_ENV) == null) {
            assertThat(loaded.getFileName()).hasToString(NativeLibrary.FILE_NAME);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(loaded.getParent())))
                    .isEqualTo("rwx------");
        }
    }
}
