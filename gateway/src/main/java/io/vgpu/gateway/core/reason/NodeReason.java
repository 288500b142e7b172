package io.vgpu.gateway.core.reason;

import java.util.List;

/** Node-level rejections with a fixed text (spec §9.3, §9.2; the last two are the gateway's own). */
public enum NodeReason implements NodeRejection {

    /** A requested node without registered GPUs (no usable {@code hami.io/node-nvidia-register}). */
    NODE_UNREGISTERED("node unregistered"),
    /** HAMi: the node has fewer devices of the vendor than a container asks for. */
    NODE_INSUFFICIENT_DEVICE("NodeInsufficientDevice"),
    /** HAMi: a request names a vendor no device back-end serves. */
    DEVICE_TYPE_NOT_FOUND("Device type not found"),
    /** The namespace's ResourceQuota, checked in the shared quota map at reservation, refuses the pod. */
    QUOTA_EXCEEDED("ResourceQuotaNotFit"),
    /** The shared state refused the reservation on this node: another replica took the capacity first. */
    RESERVATION_CONFLICT("reservation conflict: capacity taken meanwhile");

    private final String text;

    NodeReason(String text) {
        this.text = text;
    }

    @Override
    public String hamiText() {
        return text;
    }

    /** The text itself: a short fixed string. */
    @Override
    public List<String> labels() {
        return List.of(text);
    }
}
