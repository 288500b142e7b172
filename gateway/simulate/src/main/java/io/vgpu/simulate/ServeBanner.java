package io.vgpu.simulate;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What {@code simulate --serve} prints once the simulated cluster is up: the gateway's endpoints, the simulated API
 * server and its kubeconfig, the node names, and a demo pod waiting in the API server with the two {@code curl}
 * lines that filter and bind it.
 */
final class ServeBanner {

    private ServeBanner() {
    }

    /**
     * Creates the demo pod and prints the endpoints, the simulated parts and how to try them.
     *
     * @param headline                the first line
     * @param devicePluginDelayMillis the simulated device plugin's allocation time
     */
    static void print(PrintWriter out, SimulatedCluster running, String headline, long devicePluginDelayMillis) {
        String gw = running.gatewayUrl();
        String api = running.apiServer().url();
        Example examples = writeExample(running);
        out.println(headline);
        out.println("  webhook        POST " + gw + "/webhook   (AdmissionReview v1/v1beta1)");
        out.println("  filter         POST " + gw + "/filter    (kube-scheduler extender, nodeCacheCapable)");
        out.println("  bind           POST " + gw + "/bind");
        out.println("  health         GET  " + gw + "/healthz   " + gw + "/readyz");
        out.println("  metrics        GET  " + running.metricsUrl());
        out.println("  API server          " + api + "   (simulated; kubeconfig " + running.kubeconfig() + ")");
        out.println("  device plugin       simulated: a bound pod is reported allocated and its node lock released "
                + devicePluginDelayMillis + " ms after the binding");
        out.println("  nodes (" + running.nodeNames().size() + ")");
        printWrapped(out, running.nodeNames(), "                 ");
        out.println("try it: pod default/demo (1 GPU, 4 GiB) is waiting in the API server; filter it, then bind it:");
        out.println("  curl -s -H 'Content-Type: application/json' -d @" + examples.filter() + " " + gw + "/filter");
        out.println("  curl -s -H 'Content-Type: application/json' -d '{\"PodName\":\"demo\",\"PodNamespace\":"
                + "\"default\",\"PodUID\":\"" + examples.uid() + "\",\"Node\":\"<the node /filter chose>\"}' "
                + gw + "/bind");
        out.println("Ctrl-C stops the gateway and the simulated cluster.");
        out.flush();
    }

    /**
     * The example of the banner.
     *
     * @param filter the ExtenderArgs file of the demo pod
     * @param uid    the demo pod's UID
     */
    private record Example(Path filter, String uid) {
    }

    /** Creates the demo pod (as the webhook leaves it) and writes its ExtenderArgs to {@code filter.json}. */
    private static Example writeExample(SimulatedCluster running) {
        String manifest = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"demo\",\"namespace\":"
                + "\"default\"},\"spec\":{\"schedulerName\":" + Manifests.JSON.valueToTree(running.schedulerName())
                + ",\"containers\":[{\"name\":\"main\","
                + "\"image\":\"busybox\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"1\",\"nvidia.com/gpumem\":"
                + "\"4096\"}}}]}}";
        KubernetesClient client = running.client();
        Pod created = client.pods().inNamespace("default")
                .resource(client.getKubernetesSerialization().unmarshal(manifest, Pod.class)).create();
        StringBuilder names = new StringBuilder();
        running.nodeNames().forEach(n -> names.append(names.isEmpty() ? "" : ",").append('"').append(n).append('"'));
        Path file = running.kubeconfig().resolveSibling("filter.json");
        try {
            Files.writeString(file, "{\"Pod\":" + client.getKubernetesSerialization().asJson(created)
                    + ",\"NodeNames\":[" + names + "]}", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + file + ": " + e.getMessage(), e);
        }
        return new Example(file, created.getMetadata().getUid());
    }

    private static void printWrapped(PrintWriter out, List<String> words, String indent) {
        StringBuilder line = new StringBuilder(indent);
        for (String w : words) {
            if (line.length() > indent.length() && line.length() + w.length() + 1 > 110) {
                out.println(line);
                line = new StringBuilder(indent);
            }
            line.append(line.length() > indent.length() ? " " : "").append(w);
        }
        if (line.length() > indent.length()) {
            out.println(line);
        }
    }
}
