package io.vgpu.deviceplugin.dra.prepare;

import java.util.List;
import java.util.Objects;

/** The answer for one claim of a NodePrepareResources call: its devices, or why it failed. */
public sealed interface ClaimResult permits ClaimResult.Prepared, ClaimResult.Failed {

    /**
     * The claim is prepared; its devices, in allocation order.
     *
     * @param devices the devices (none when the claim has no device of this driver)
     */
    record Prepared(List<KubeletDevice> devices) implements ClaimResult {
        /** Copies the list. */
        public Prepared {
            devices = List.copyOf(devices);
        }
    }

    /**
     * Preparing the claim failed; nothing of it is left on the node.
     *
     * @param error the message the kubelet shows in its event
     */
    record Failed(String error) implements ClaimResult {
        /** Requires a message. */
        public Failed {
            Objects.requireNonNull(error, "error");
        }
    }
}
