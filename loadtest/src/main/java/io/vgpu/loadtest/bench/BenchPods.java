package io.vgpu.loadtest.bench;

import io.vertx.core.buffer.Buffer;
import io.vgpu.gateway.core.Container;
import io.vgpu.gateway.core.PodSpec;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The request payloads of the benchmark, the same for the bare endpoint and the gateway: pods as kube-scheduler
 * sends them after admission (scheduler name set, one GPU container asking for 1 GPU and a memory slice, an
 * {@code istio-init}-style container in front of every tenth), and {@code ExtenderArgs} in NodeNames mode listing
 * every node of the cluster. Deterministic: pod {@code i} of a run is always the same pod.
 */
final class BenchPods {

    static final String SCHEDULER = "hami-scheduler";
    static final String NAMESPACE = "bench";
    private static final int[] MEM_MIB = {1024, 2048, 4096, 8192};

    private final String run;
    private final byte[] nodeNamesSuffix;

    /**
     * @param run       distinguishes the pods of one run from another's (names and UIDs)
     * @param nodeNames the {@code NodeNames} every filter request lists
     */
    BenchPods(String run, List<String> nodeNames) {
        this.run = run;
        StringBuilder b = new StringBuilder(nodeNames.size() * 18 + 16).append(",\"NodeNames\":[");
        for (int i = 0; i < nodeNames.size(); i++) {
            b.append(i == 0 ? "\"" : ",\"").append(nodeNames.get(i)).append('"');
        }
        this.nodeNamesSuffix = b.append("]}").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Pod {@code i} as the API server holds it after admission. */
    PodSpec pod(long i) {
        Map<String, String> limits = Map.of("nvidia.com/gpu", "1",
                "nvidia.com/gpumem", Integer.toString(MEM_MIB[(int) (i % MEM_MIB.length)]));
        List<Container> init = i % 10 == 0 ? List.of(new Container("istio-init", Map.of(), Map.of(), false, List.of()))
                : List.of();
        return new PodSpec(name(i), NAMESPACE, uid(i), SCHEDULER, "", null, Map.of(), Map.of("app", "bench"), init,
                List.of(new Container("main", limits, Map.of(), false, List.of())));
    }

    /** The pod with the UID the API server gave it. */
    static PodSpec withUid(PodSpec p, String uid) {
        return new PodSpec(p.name(), p.namespace(), uid, p.schedulerName(), p.nodeName(), p.runtimeClassName(),
                p.annotations(), p.labels(), p.initContainers(), p.containers());
    }

    String name(long i) {
        return "bench-" + run + "-" + i;
    }

    String uid(long i) {
        return String.format("%08x-0000-4000-8000-%012d", run.hashCode(), i);
    }

    /** The {@code /filter} body for pod {@code i}: {@code {"Pod":{...},"NodeNames":[...]}}. */
    Buffer filterArgs(PodSpec pod) {
        byte[] json = podJson(pod).getBytes(StandardCharsets.UTF_8);
        return Buffer.buffer(json.length + nodeNamesSuffix.length + 8).appendString("{\"Pod\":").appendBytes(json)
                .appendBytes(nodeNamesSuffix);
    }

    /** The {@code /bind} body. */
    static Buffer bindingArgs(PodSpec pod, String node) {
        return Buffer.buffer("{\"PodName\":\"" + pod.name() + "\",\"PodNamespace\":\"" + pod.namespace()
                + "\",\"PodUID\":\"" + pod.uid() + "\",\"Node\":\"" + node + "\"}");
    }

    /** The Pod object as kube-scheduler serialises it (the fields a real pod has around the ones read). */
    static String podJson(PodSpec pod) {
        StringBuilder b = new StringBuilder(1024);
        b.append("{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"").append(pod.name())
                .append("\",\"namespace\":\"").append(pod.namespace()).append("\",\"uid\":\"").append(pod.uid())
                .append("\",\"resourceVersion\":\"1\",\"creationTimestamp\":\"2026-01-01T00:00:00Z\",\"labels\":{");
        appendMap(b, pod.labels());
        b.append("},\"annotations\":{");
        appendMap(b, pod.annotations());
        b.append("}},\"spec\":{");
        if (!pod.initContainers().isEmpty()) {
            b.append("\"initContainers\":[");
            appendContainers(b, pod.initContainers());
            b.append("],");
        }
        b.append("\"containers\":[");
        appendContainers(b, pod.containers());
        b.append("],\"restartPolicy\":\"Always\",\"terminationGracePeriodSeconds\":30,\"dnsPolicy\":\"ClusterFirst\","
                + "\"serviceAccountName\":\"default\",\"securityContext\":{},\"schedulerName\":\"")
                .append(pod.schedulerName()).append("\",\"tolerations\":[{\"key\":\"node.kubernetes.io/not-ready\","
                + "\"operator\":\"Exists\",\"effect\":\"NoExecute\",\"tolerationSeconds\":300}],"
                + "\"priority\":0,\"enableServiceLinks\":true,\"preemptionPolicy\":\"PreemptLowerPriority\"},"
                + "\"status\":{\"phase\":\"Pending\",\"qosClass\":\"BestEffort\"}}");
        return b.toString();
    }

    private static void appendContainers(StringBuilder b, List<Container> containers) {
        for (int c = 0; c < containers.size(); c++) {
            Container k = containers.get(c);
            b.append(c == 0 ? "" : ",").append("{\"name\":\"").append(k.name())
                    .append("\",\"image\":\"registry.example/app:1.0\",\"resources\":{\"limits\":{");
            appendMap(b, k.limits());
            b.append("}},\"volumeMounts\":[{\"name\":\"kube-api-access\",\"readOnly\":true,"
                    + "\"mountPath\":\"/var/run/secrets/kubernetes.io/serviceaccount\"}],"
                    + "\"terminationMessagePath\":\"/dev/termination-log\",\"terminationMessagePolicy\":\"File\","
                    + "\"imagePullPolicy\":\"IfNotPresent\"}");
        }
    }

    private static void appendMap(StringBuilder b, Map<String, String> map) {
        boolean first = true;
        for (Map.Entry<String, String> e : new java.util.TreeMap<>(map).entrySet()) {
            b.append(first ? "\"" : ",\"").append(e.getKey()).append("\":\"").append(e.getValue()).append('"');
            first = false;
        }
    }
}
