package io.vgpu.deviceplugin.core.port;

/**
 * Kubernetes Events on this agent's Node, where an operator looks ({@code kubectl describe node}): mode
 * switches and their refusals, slices the agent will not publish. Fire and forget: an Event that cannot
 * be written is logged by the implementation and never fails the caller. Callers report a condition
 * when it starts or changes, not on every retry. Never blocks.
 */
public interface NodeEvents {

    /** A {@code Warning} Event with a CamelCase {@code reason} and a human-readable message. */
    void warning(String reason, String message);

    /** A {@code Normal} Event. */
    void normal(String reason, String message);
}
