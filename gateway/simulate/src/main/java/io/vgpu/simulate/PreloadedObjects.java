package io.vgpu.simulate;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * {@code simulate --serve --pods DIR}: the Pods (and Nodes) of a directory of manifests, to be stored in the simulated
 * API server before the gateway starts, e.g. the pods and nodes of a recorded kube-scheduler session so that its
 * {@code /filter} and {@code /bind} calls can be replayed (they name the pods' UIDs and the nodes' names). Every
 * {@code *.yaml}, {@code *.yml} and {@code *.json} file directly in the directory, in name order; a file may hold
 * several YAML documents or a {@code List} ({@code kubectl get pods -o yaml} writes one). A Pod without a namespace
 * goes into {@code default}; a UID is kept as it is. Anything else in a file is an error naming the file.
 */
final class PreloadedObjects {

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private PreloadedObjects() {
    }

    /**
     * Reads the directory.
     *
     * @throws IllegalArgumentException naming the file and the problem (unreadable, not a manifest, another kind, a
     *                                  pod or node twice)
     */
    static List<HasMetadata> read(Path dir) {
        List<Path> files;
        try (Stream<Path> listed = Files.list(dir)) {
            files = listed.filter(Files::isRegularFile).filter(PreloadedObjects::isManifest).sorted().toList();
        } catch (IOException e) {
            throw new IllegalArgumentException("--pods " + dir + ": cannot list the directory: " + e.getMessage(), e);
        }
        List<HasMetadata> objects = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Path file : files) {
            for (HasMetadata object : parse(file)) {
                String key = check(file, object);
                if (!seen.add(key)) {
                    throw new IllegalArgumentException("--pods " + file + ": " + key + " is defined twice");
                }
                objects.add(object);
            }
        }
        if (objects.stream().noneMatch(o -> o instanceof Pod)) {
            throw new IllegalArgumentException("--pods " + dir + ": no Pod in any *.yaml, *.yml or *.json file");
        }
        return objects;
    }

    private static boolean isManifest(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith(".yaml") || name.endsWith(".yml") || name.endsWith(".json");
    }

    private static List<HasMetadata> parse(Path file) {
        Object parsed;
        try (InputStream in = Files.newInputStream(file)) {
            parsed = SERIALIZATION.unmarshal(in);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("--pods " + file + ": not a Kubernetes manifest: " + e.getMessage(), e);
        }
        List<HasMetadata> out = new ArrayList<>();
        flatten(file, parsed, out);
        return out;
    }

    private static void flatten(Path file, Object parsed, List<HasMetadata> out) {
        if (parsed instanceof KubernetesList list) {
            list.getItems().forEach(item -> flatten(file, item, out));
        } else if (parsed instanceof List<?> documents) {
            documents.forEach(document -> flatten(file, document, out));
        } else if (parsed instanceof HasMetadata object) {
            out.add(object);
        } else if (parsed != null) {
            throw new IllegalArgumentException("--pods " + file + ": not a Kubernetes object");
        }
    }

    /** The object's identity; refuses what cannot be preloaded. */
    private static String check(Path file, HasMetadata object) {
        String name = object.getMetadata() == null ? null : object.getMetadata().getName();
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("--pods " + file + ": a " + object.getKind() + " without a name");
        }
        if (object instanceof Pod pod) {
            if (pod.getMetadata().getNamespace() == null || pod.getMetadata().getNamespace().isEmpty()) {
                pod.getMetadata().setNamespace("default");
            }
            return "pod " + pod.getMetadata().getNamespace() + "/" + name;
        }
        if (object instanceof Node) {
            return "node " + name;
        }
        throw new IllegalArgumentException("--pods " + file + ": " + object.getKind() + " " + name
                + " is neither a Pod nor a Node");
    }
}
