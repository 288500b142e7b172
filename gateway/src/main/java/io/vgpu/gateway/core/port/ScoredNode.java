package io.vgpu.gateway.core.port;

/**
 * A node the pod fits on and its HAMi node score, as the {@code FilteringSucceed} event lists it.
 *
 * @param node  node name
 * @param score HAMi node score (float32, printed with two decimals)
 */
public record ScoredNode(String node, float score) {
}
