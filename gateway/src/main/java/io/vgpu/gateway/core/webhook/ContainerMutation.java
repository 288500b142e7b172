package io.vgpu.gateway.core.webhook;

import io.vgpu.gateway.core.Container;

/**
 * The outcome of mutating one container for one vendor at admission (HAMi {@code MutateAdmission}).
 */
public sealed interface ContainerMutation permits ContainerMutation.Mutated, ContainerMutation.Rejected {

    /** Whether the container now counts as asking for a HAMi resource (false when rejected). */
    boolean hasResource();

    /**
     * The container was accepted (possibly unchanged).
     *
     * @param after            the container after mutation
     * @param hasResource      whether it asks for a HAMi resource
     * @param runtimeClassName the pod's {@code spec.runtimeClassName} after this container (null = unset)
     */
    record Mutated(Container after, boolean hasResource, String runtimeClassName) implements ContainerMutation {
    }

    /**
     * The container is invalid; the webhook answers errored 500 with {@code message}.
     *
     * @param message the error text
     */
    record Rejected(String message) implements ContainerMutation {

        @Override
        public boolean hasResource() {
            return false;
        }
    }
}
