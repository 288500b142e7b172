package io.vgpu.gateway.core.draview;

/** ResourceSlice and ResourceClaim JSON as the API server serves them ({@code resource.k8s.io/v1}), for tests. */
public final class DraJson {

    private DraJson() {
    }

    /** One GPU of a slice: {@code gpu-<minor>}, memory in MiB, split count (slots default 1000/split). */
    public static String gpu(int minor, String uuid, long memoryMiB, int split, String... taintEffects) {
        StringBuilder taints = new StringBuilder();
        for (String effect : taintEffects) {
            taints.append(taints.length() == 0 ? "" : ",").append("{\"key\":\"gpu.vgpu.io/unhealthy\",\"effect\":\"")
                    .append(effect).append("\"}");
        }
        return "{\"name\":\"gpu-" + minor + "\",\"allowMultipleAllocations\":true,"
                + "\"attributes\":{\"uuid\":{\"string\":\"" + uuid + "\"},\"productName\":{\"string\":\"NVIDIA A100\"},"
                + "\"index\":{\"int\":" + minor + "},\"numa\":{\"int\":0}},"
                + "\"capacity\":{\"memory\":{\"value\":\"" + memoryMiB + "Mi\",\"requestPolicy\":{\"default\":\""
                + memoryMiB + "Mi\",\"validRange\":{\"min\":\"1Mi\",\"step\":\"1Mi\"}}},"
                + "\"cores\":{\"value\":\"100\",\"requestPolicy\":{\"default\":\"0\",\"validRange\":{\"min\":\"0\","
                + "\"max\":\"100\",\"step\":\"1\"}}},"
                + "\"slots\":{\"value\":\"1000\",\"requestPolicy\":{\"default\":\"" + (1000 / split)
                + "\",\"validValues\":[\"" + (1000 / split) + "\",\"1000\"]}}}"
                + (taints.length() == 0 ? "" : ",\"taints\":[" + taints + "]") + "}";
    }

    /** A node-local slice of {@code driver} for {@code node} at {@code generation}. */
    public static String slice(String name, String driver, String node, long generation, String... devices) {
        return "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceSlice\",\"metadata\":{\"name\":\"" + name
                + "\"},\"spec\":{\"driver\":\"" + driver + "\",\"nodeName\":\"" + node + "\",\"pool\":{\"name\":\""
                + node + "\",\"generation\":" + generation + ",\"resourceSliceCount\":1},\"devices\":["
                + String.join(",", devices) + "]}}";
    }

    /** One allocation result; {@code consumed} is the {@code consumedCapacity} object body, or null for none. */
    public static String result(String driver, String node, String device, String consumed) {
        return "{\"request\":\"gpu\",\"driver\":\"" + driver + "\",\"pool\":\"" + node + "\",\"device\":\"" + device
                + "\"" + (consumed == null ? "" : ",\"shareID\":\"7f0c9a2e-0000-4000-8000-000000000001\","
                + "\"consumedCapacity\":{" + consumed + "}") + "}";
    }

    /** An allocated claim reserved for {@code pod} (null: not reserved) with these results. */
    public static String claim(String namespace, String name, String pod, String... results) {
        return "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"namespace\":\""
                + namespace + "\",\"name\":\"" + name + "\"},\"spec\":{\"devices\":{\"requests\":[{\"name\":\"gpu\","
                + "\"exactly\":{\"deviceClassName\":\"gpu.vgpu.io\"}}]}},\"status\":{\"allocation\":{\"devices\":"
                + "{\"results\":[" + String.join(",", results) + "]}}"
                + (pod == null ? "" : ",\"reservedFor\":[{\"resource\":\"pods\",\"name\":\"" + pod
                + "\",\"uid\":\"uid-" + pod + "\"}]") + "}}";
    }
}
