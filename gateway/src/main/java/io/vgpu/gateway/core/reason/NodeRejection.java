package io.vgpu.gateway.core.reason;

import java.util.List;

/**
 * Why one node cannot take a pod, as a value (kube-scheduler's {@code Status(Unschedulable, reasons…)} built from
 * structured reasons): counts per {@link io.vgpu.state.model.FitReason} over a node's devices, a fixed node-level
 * reason, or an inconsistency of the node's own data. The filter carries these values from {@code NvidiaFit} to the
 * edge; HAMi's text ({@code "1/2 CardInsufficientMemory"}) is made only where an answer leaves the process
 * ({@link #hamiText}), and metrics and Events count the reasons themselves, never a parsed text.
 */
public sealed interface NodeRejection permits DeviceRejection, NodeReason, NodeRejection.Inconsistent {

    /** The label of a rejection whose text carries variables (metric label values stay a small, fixed set). */
    String OTHER = "Other";

    /**
     * HAMi's {@code FailedNodes} text for this node, byte for byte: {@code "<count>/<devices> <Reason>"} parts sorted
     * as strings and joined by {@code ", "}, or the fixed text of a node-level reason.
     */
    String hamiText();

    /**
     * The metric labels this node is counted under in {@code vgpu_filter_rejected_nodes_total}: each counted device
     * reason's name, a node-level reason's text, or {@link #OTHER}.
     */
    List<String> labels();

    /**
     * A node whose own data contradicts itself while the pod is placed (a picked device missing after Fit, a MIG
     * card without a placement for a pick): no reason a user can act on, so its label is {@link #OTHER}.
     *
     * @param message the text answered for the node
     */
    record Inconsistent(String message) implements NodeRejection {

        @Override
        public String hamiText() {
            return message;
        }

        @Override
        public List<String> labels() {
            return List.of(OTHER);
        }
    }
}
