package io.vgpu.gateway.kube;

/** REST paths of the core/v1 objects the gateway touches. */
final class KubePaths {

    private KubePaths() {
    }

    /** {@code /api/v1/nodes/<name>}. */
    static String node(String name) {
        return "/api/v1/nodes/" + name;
    }

    /** {@code /api/v1/namespaces/<ns>/pods/<name>}. */
    static String pod(String namespace, String name) {
        return "/api/v1/namespaces/" + namespace + "/pods/" + name;
    }

    /** {@code /api/v1/namespaces/<ns>/pods/<name>/binding}. */
    static String binding(String namespace, String name) {
        return pod(namespace, name) + "/binding";
    }

    /** {@code /api/v1/namespaces/<ns>/events}. */
    static String events(String namespace) {
        return "/api/v1/namespaces/" + namespace + "/events";
    }
}
