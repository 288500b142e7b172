package io.vgpu.gateway.core.webhook;

import io.vgpu.gateway.core.Container;
import io.vgpu.gateway.core.PodSpec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Computes the targeted JSON Patch that turns a pod into its mutated form, on the pod JSON the API
 * server sends (spec §5.2: only the effect counts, not the op order or shape). Covers the fields the
 * webhook changes: {@code spec.schedulerName}, {@code spec.runtimeClassName}, and per container
 * {@code resources.limits}, {@code resources.requests} and {@code env}.
 *
 * <p>Never replaces a whole object that may hold fields the core does not model: a changed map
 * member or list element gets its own op. A parent that does not exist yet is created whole: an empty
 * {@code limits} (omitted from the JSON) is added as a map, an empty {@code env} as a list, and a
 * container with neither limits nor requests gets {@code resources} added as a map. Keys are emitted in
 * sorted order so the patch is deterministic.
 *
 * <p>Contract on the input: an empty map or list in {@link Container} means the JSON member is
 * absent or empty, so {@link Container#env()} must list every env entry of the real pod.
 */
final class PodPatch {

    private PodPatch() {
    }

    /** The ops turning {@code before} into {@code after}; both must have the same containers. */
    static List<PatchOp> diff(PodSpec before, PodSpec after) {
        List<PatchOp> ops = new ArrayList<>();
        scalar(ops, JsonPointer.of("spec", "schedulerName"), emptyToNull(before.schedulerName()),
                emptyToNull(after.schedulerName()));
        scalar(ops, JsonPointer.of("spec", "runtimeClassName"), before.runtimeClassName(), after.runtimeClassName());
        containers(ops, "initContainers", before.initContainers(), after.initContainers());
        containers(ops, "containers", before.containers(), after.containers());
        return ops;
    }

    private static void containers(List<PatchOp> ops, String field, List<Container> before, List<Container> after) {
        if (before.size() != after.size()) {
            throw new IllegalArgumentException("container count changed in " + field);
        }
        for (int i = 0; i < before.size(); i++) {
            String base = JsonPointer.of("spec", field, i);
            Container b = before.get(i);
            Container a = after.get(i);
            resources(ops, base + "/resources", b, a);
            env(ops, base + "/env", b.env(), a.env());
        }
    }

    private static void resources(List<PatchOp> ops, String path, Container b, Container a) {
        boolean hadNone = b.limits().isEmpty() && b.requests().isEmpty();
        boolean hasSome = !a.limits().isEmpty() || !a.requests().isEmpty();
        if (hadNone && hasSome) {
            Map<String, Object> resources = new LinkedHashMap<>();
            if (!a.limits().isEmpty()) {
                resources.put("limits", sorted(a.limits()));
            }
            if (!a.requests().isEmpty()) {
                resources.put("requests", sorted(a.requests()));
            }
            ops.add(PatchOp.add(path, Collections.unmodifiableMap(resources)));
            return;
        }
        map(ops, path + "/limits", b.limits(), a.limits());
        map(ops, path + "/requests", b.requests(), a.requests());
    }

    private static void map(List<PatchOp> ops, String path, Map<String, String> before, Map<String, String> after) {
        if (before.equals(after)) {
            return;
        }
        if (before.isEmpty()) {
            ops.add(PatchOp.add(path, sorted(after)));
            return;
        }
        if (after.isEmpty()) {
            ops.add(PatchOp.remove(path));
            return;
        }
        TreeSet<String> keys = new TreeSet<>(before.keySet());
        keys.addAll(after.keySet());
        for (String k : keys) {
            String member = path + "/" + JsonPointer.escape(k);
            String was = before.get(k);
            String now = after.get(k);
            if (was == null) {
                ops.add(PatchOp.add(member, now));
            } else if (now == null) {
                ops.add(PatchOp.remove(member));
            } else if (!was.equals(now)) {
                ops.add(PatchOp.replace(member, now));
            }
        }
    }

    private static void env(List<PatchOp> ops, String path, List<Container.EnvVar> before,
                            List<Container.EnvVar> after) {
        if (before.equals(after)) {
            return;
        }
        if (before.isEmpty()) {
            ops.add(PatchOp.add(path, after.stream().map(PodPatch::envJson).toList()));
            return;
        }
        if (after.isEmpty()) {
            ops.add(PatchOp.remove(path));
            return;
        }
        int common = Math.min(before.size(), after.size());
        for (int i = 0; i < common; i++) {
            if (!before.get(i).equals(after.get(i))) {
                ops.add(PatchOp.replace(path + "/" + i, envJson(after.get(i))));
            }
        }
        for (int i = common; i < after.size(); i++) {
            ops.add(PatchOp.add(path + "/-", envJson(after.get(i))));
        }
        for (int i = before.size() - 1; i >= common; i--) {
            ops.add(PatchOp.remove(path + "/" + i));
        }
    }

    private static void scalar(List<PatchOp> ops, String path, String before, String after) {
        if (Objects.equals(before, after)) {
            return;
        }
        if (after == null) {
            ops.add(PatchOp.remove(path));
        } else if (before == null) {
            ops.add(PatchOp.add(path, after));
        } else {
            ops.add(PatchOp.replace(path, after));
        }
    }

    private static Map<String, Object> envJson(Container.EnvVar v) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", v.name());
        m.put("value", v.value());
        return Collections.unmodifiableMap(m);
    }

    private static Map<String, Object> sorted(Map<String, String> m) {
        return Collections.unmodifiableMap(new TreeMap<>(m));
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
