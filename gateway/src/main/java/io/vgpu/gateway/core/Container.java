package io.vgpu.gateway.core;

import java.util.List;
import java.util.Map;

/**
 * The part of a Kubernetes container the scheduling core reads and the webhook may change. Resource
 * quantities are kept as the strings of the pod spec ({@code "1"}, {@code "16Gi"}).
 *
 * @param name       container name
 * @param limits     {@code resources.limits}
 * @param requests   {@code resources.requests}
 * @param privileged {@code securityContext.privileged == true}
 * @param env        environment variables, in spec order
 */
public record Container(String name, Map<String, String> limits, Map<String, String> requests, boolean privileged,
                        List<EnvVar> env) {

    /** Copies maps and lists; nulls become empty. */
    public Container {
        name = name == null ? "" : name;
        limits = limits == null ? Map.of() : Map.copyOf(limits);
        requests = requests == null ? Map.of() : Map.copyOf(requests);
        env = env == null ? List.of() : List.copyOf(env);
    }

    /**
     * A name/value environment variable.
     *
     * @param name  variable name
     * @param value literal value
     */
    public record EnvVar(String name, String value) {
    }
}
