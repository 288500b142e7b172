package io.vgpu.deploy;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads pod templates of rendered workloads. */
final class Pods {

    /** What a downward-API or other {@code valueFrom} variable stands for in these tests. */
    static final String FROM_POD = "from-pod";

    private Pods() {
    }

    static JsonNode podSpec(JsonNode workload) {
        return workload.path("spec").path("template").path("spec");
    }

    static JsonNode container(JsonNode workload, String name) {
        return find(podSpec(workload).path("containers"), name);
    }

    static JsonNode initContainer(JsonNode workload, String name) {
        return find(podSpec(workload).path("initContainers"), name);
    }

    static List<String> containerNames(JsonNode workload) {
        List<String> names = new ArrayList<>();
        podSpec(workload).path("containers").forEach(c -> names.add(c.path("name").asText()));
        return names;
    }

    /** The container's env as name → value, {@code valueFrom} entries as {@link #FROM_POD}; names must be unique. */
    static Map<String, String> env(JsonNode container) {
        Map<String, String> env = new LinkedHashMap<>();
        for (JsonNode e : container.path("env")) {
            String name = e.path("name").asText();
            String value = e.has("valueFrom") ? FROM_POD : e.path("value").asText("");
            if (env.put(name, value) != null) {
                throw new AssertionError("env " + name + " is set twice in container " + container.path("name").asText());
            }
        }
        return env;
    }

    /** The container's mounts as mountPath → mount. */
    static Map<String, JsonNode> mounts(JsonNode container) {
        Map<String, JsonNode> mounts = new LinkedHashMap<>();
        container.path("volumeMounts").forEach(m -> mounts.put(m.path("mountPath").asText(), m));
        return mounts;
    }

    static JsonNode volume(JsonNode workload, String name) {
        return find(podSpec(workload).path("volumes"), name);
    }

    /** The volume behind the mount at {@code mountPath} of {@code container}. */
    static JsonNode volumeAt(JsonNode workload, JsonNode container, String mountPath) {
        JsonNode mount = mounts(container).get(mountPath);
        if (mount == null) {
            throw new AssertionError(container.path("name").asText() + " mounts nothing at " + mountPath + ": "
                    + mounts(container).keySet());
        }
        return volume(workload, mount.path("name").asText());
    }

    private static JsonNode find(JsonNode list, String name) {
        for (JsonNode item : list) {
            if (name.equals(item.path("name").asText())) {
                return item;
            }
        }
        List<String> names = new ArrayList<>();
        list.forEach(i -> names.add(i.path("name").asText()));
        throw new AssertionError("no " + name + " among " + names);
    }

    /** Whether every label of {@code selector} (matchLabels) is on {@code labels}. */
    static boolean selects(JsonNode matchLabels, JsonNode labels) {
        if (matchLabels.isMissingNode() || matchLabels.isEmpty()) {
            return false;
        }
        var it = matchLabels.fields();
        while (it.hasNext()) {
            var e = it.next();
            if (!e.getValue().asText().equals(labels.path(e.getKey()).asText(null))) {
                return false;
            }
        }
        return true;
    }
}
