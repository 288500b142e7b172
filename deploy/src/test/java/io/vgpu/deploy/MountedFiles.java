package io.vgpu.deploy;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Lays out under a local directory the files a rendered container would see in its ConfigMap and Secret
 * mounts, so that the apps' own config readers can be run on the container's environment: paths in the
 * environment are rewritten to the local copies. A Secret that cert-manager makes at run time is laid out
 * as placeholder files.
 */
final class MountedFiles {

    private final Path root;
    private final Map<String, Path> mounted = new LinkedHashMap<>();

    private MountedFiles(Path root) {
        this.root = root;
    }

    /** Lays out every mount of {@code container} of {@code workload} under {@code root}. */
    static MountedFiles of(Rendered render, JsonNode workload, JsonNode container, Path root) {
        MountedFiles files = new MountedFiles(root);
        for (JsonNode mount : container.path("volumeMounts")) {
            String mountPath = mount.path("mountPath").asText();
            JsonNode volume = Pods.volume(workload, mount.path("name").asText());
            files.layOut(render, volume, mountPath, mount.path("subPath").asText(""));
        }
        return files;
    }

    /** The local path of a path inside the container, or null when no mount holds it. */
    Path local(String containerPath) {
        for (Map.Entry<String, Path> m : mounted.entrySet()) {
            String mountPath = m.getKey();
            if (containerPath.equals(mountPath)) {
                return m.getValue();
            }
            if (containerPath.startsWith(mountPath + "/")) {
                return m.getValue().resolve(containerPath.substring(mountPath.length() + 1));
            }
        }
        return null;
    }

    /** {@code env} with every value that names a mounted path replaced by the local copy's path. */
    Map<String, String> rewrite(Map<String, String> env) {
        Map<String, String> out = new LinkedHashMap<>();
        env.forEach((k, v) -> {
            Path local = v.startsWith("/") ? local(v) : null;
            out.put(k, local == null ? v : local.toString());
        });
        return out;
    }

    private void layOut(Rendered render, JsonNode volume, String mountPath, String subPath) {
        Path target = root.resolve(mountPath.substring(1));
        String source = volume.has("configMap") ? "configMap" : volume.has("secret") ? "secret" : null;
        if (source == null) {
            mkdirs(target); // hostPath, emptyDir
            mounted.put(mountPath, target);
            return;
        }
        Map<String, byte[]> data = source.equals("configMap") ? configMapData(render, volume) : secretData(render, volume);
        if (volume.path(source).has("items")) {
            data = project(data, volume.path(source).path("items"), volume.path("name").asText());
        }
        if (!subPath.isEmpty()) {
            byte[] content = data.get(subPath);
            if (content == null) {
                throw new AssertionError("subPath " + subPath + " of volume " + volume.path("name").asText() + " has no data");
            }
            write(target, content);
        } else {
            mkdirs(target);
            for (Map.Entry<String, byte[]> e : data.entrySet()) {
                write(target.resolve(e.getKey()), e.getValue());
            }
        }
        mounted.put(mountPath, target);
    }

    private static Map<String, byte[]> configMapData(Rendered render, JsonNode volume) {
        String name = volume.path("configMap").path("name").asText();
        JsonNode cm = render.find("ConfigMap", name).orElseThrow(
                () -> new AssertionError("ConfigMap " + name + " is mounted but not rendered"));
        Map<String, byte[]> data = new LinkedHashMap<>();
        JsonNode d = cm.path("data");
        d.fieldNames().forEachRemaining(k -> data.put(k, d.path(k).asText().getBytes(StandardCharsets.UTF_8)));
        return data;
    }

    private static Map<String, byte[]> secretData(Rendered render, JsonNode volume) {
        String name = volume.path("secret").path("secretName").asText();
        Map<String, byte[]> data = new LinkedHashMap<>();
        var secret = render.find("Secret", name);
        if (secret.isPresent()) {
            JsonNode d = secret.get().path("data");
            d.fieldNames().forEachRemaining(k -> data.put(k, Base64.getDecoder().decode(d.path(k).asText())));
        } else {
            for (String k : List.of("ca.crt", "tls.crt", "tls.key")) { // what cert-manager writes at run time
                data.put(k, ("placeholder for " + k + "\n").getBytes(StandardCharsets.UTF_8));
            }
        }
        return data;
    }

    private static Map<String, byte[]> project(Map<String, byte[]> data, JsonNode items, String volume) {
        Map<String, byte[]> projected = new LinkedHashMap<>();
        for (JsonNode item : items) {
            byte[] content = data.get(item.path("key").asText());
            if (content == null) {
                throw new AssertionError("volume " + volume + " projects the missing key " + item.path("key").asText());
            }
            projected.put(item.path("path").asText(), content);
        }
        return projected;
    }

    private static void write(Path file, byte[] content) {
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void mkdirs(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
