package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.hamicore.NativeSysfs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code numa_sysfs_path}: the sysfs file read for a GPU's NUMA node, checked against the shipped C code
 * ({@code vg_numa_node} in hamicore-jni, through JNI): a sysfs tree in a temporary directory holds only the
 * expected file, with a NUMA node the C code can only report by reading exactly that file.
 */
public final class NumaSysfsPathVectors implements NodeVectorFamily {

    private static final String SYS = "/sys";
    private static final int NODE = 3;

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        String expected = vector.path("expected").path("sysfs_path").asText();
        if (!expected.startsWith(SYS + "/")) {
            return List.of("expected path " + expected + " is not under " + SYS);
        }
        try {
            Path root = Files.createTempDirectory("numa-sysfs");
            try {
                Path file = root.resolve(expected.substring(SYS.length() + 1));
                Files.createDirectories(file.getParent());
                Files.writeString(file, NODE + "\n");
                int read = NativeSysfs.numaNode(root, vector.path("input").path("pci_bus_id").asText());
                return new Checks().expect("numa node read from " + expected, Integer.toString(NODE), Integer.toString(read))
                        .list();
            } finally {
                try (var walk = Files.walk(root)) {
                    walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
