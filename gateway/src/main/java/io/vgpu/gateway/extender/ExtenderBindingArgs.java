package io.vgpu.gateway.extender;

/**
 * A decoded {@code ExtenderBindingArgs} (the {@code /bind} request).
 *
 * @param podName      {@code PodName}
 * @param podNamespace {@code PodNamespace}
 * @param podUid       {@code PodUID}
 * @param node         {@code Node}
 */
public record ExtenderBindingArgs(String podName, String podNamespace, String podUid, String node) {
}
