package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.hamicore.NativeNvml;
import io.vgpu.hamicore.NvmlConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;

/**
 * {@code nvml_c_string}: NVML's NUL-terminated byte arrays, checked against the shipped C path: the device
 * plugin's {@link NativeNvml#name} (JNI, {@code device_string} in {@code vgpu_nvml.c} and
 * {@code hamicore_jni.c}) over hamicore-jni's fake {@code libnvidia-ml}, whose {@code nvmlDeviceGetName} writes
 * the vector's bytes at the start of the caller's buffer and zeros in the rest of it, as a Go {@code [N]int8}
 * array holds zeros after a short string.
 *
 * <p>The one case the C path can differ from HAMi's Go: a name that fills NVML's whole buffer (96 bytes) without
 * a NUL loses its last byte, because the C code forces the buffer's last byte to NUL. NVML always terminates its
 * strings, so this is theoretical (docs/hami-deviations.md; hamicore-jni's NativeNvmlTest shows it).
 */
public final class NvmlCStringVectors implements NodeVectorFamily {

    private static final String GPU = "gpu GPU-00000000-0000-0000-0000-000000000001 00000000:3B:00.0 42949672960 0 -1 0 0 ignored";

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        JsonNode bytesJson = vector.path("input").path("bytes");
        byte[] bytes = new byte[bytesJson.size()];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) bytesJson.get(i).asInt();
        }
        String expected = vector.path("expected").path("string").asText();
        try {
            Path dir = Files.createTempDirectory("nvml-c-string");
            try {
                return new Checks().expect("string", expected, nameOverFakeNvml(dir, bytes)).list();
            } finally {
                try (var walk = Files.walk(dir)) {
                    walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The name the device plugin reads for a GPU whose NVML writes {@code bytes}. */
    private static String nameOverFakeNvml(Path dir, byte[] bytes) throws IOException {
        String built = System.getProperty("vgpu.test.fakeNvml", "");
        if (built.isBlank()) {
            throw new IllegalStateException("-Dvgpu.test.fakeNvml (set by the pom) names no fake NVML library");
        }
        Path library = dir.resolve("libnvidia-ml.so.1");
        Files.copy(Path.of(built), library, StandardCopyOption.REPLACE_EXISTING);
        Files.write(Path.of(library + ".conf"), List.of(GPU, "namebytes 0 " + HexFormat.of().formatHex(bytes)));
        try (NativeNvml nvml = NativeNvml.open(new NvmlConfig(library.toString(), dir.resolve("sys")))) {
            return nvml.name(0);
        }
    }
}
