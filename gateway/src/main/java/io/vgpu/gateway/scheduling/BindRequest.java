package io.vgpu.gateway.scheduling;

import io.vgpu.gateway.core.KubeIdentity;
import io.vgpu.gateway.core.port.PodAddress;

/**
 * One bind as kube-scheduler asks for it: the pod (namespace, name and the UID it decided for) and the node.
 * Nothing is checked on construction; {@link #problem()} says whether it can name a pod at all.
 *
 * @param namespace the pod's namespace
 * @param name      the pod's name
 * @param uid       the pod's UID
 * @param node      the node to bind to
 */
public record BindRequest(String namespace, String name, String uid, String node) {

    /**
     * Why the request names no pod that can exist, or null: the namespace, pod and node names must be valid
     * Kubernetes names and the UID the API server gave the pod (a charge is keyed by it, and the Binding carries it
     * as its precondition). The names are those of kube-scheduler's {@code ExtenderBindingArgs}.
     */
    public String problem() {
        String problem = KubeIdentity.podProblem("PodNamespace", namespace, "PodName", name, "PodUID", uid);
        if (problem != null) {
            return problem;
        }
        problem = KubeIdentity.subdomainProblem(node);
        return problem == null ? null : "Node " + KubeIdentity.quote(node) + ": " + problem;
    }

    /** The pod as the ports address it. */
    PodAddress pod() {
        return new PodAddress(namespace, name, uid);
    }

    /** {@code <namespace>/<name>}, as the answers name the pod. */
    String qualified() {
        return namespace + "/" + name;
    }
}
