package io.vgpu.gateway.core.port;

import java.util.concurrent.CompletionStage;

/**
 * The HAMi namespace quota for pods the webhook translates to DRA claims (issue 13 item 2). Such a pod is never
 * filtered or bound by the extender, so its memory and cores are charged at admission; it has no UID yet, so the
 * charge is a <em>ticket</em>: the webhook writes {@link #ANNOTATION} with the granted value on the pod, the ticket
 * becomes the pod's charge when the informer shows the pod, and it expires at its deadline otherwise. It is released
 * when the pod's claims are deallocated or the pod ends. Consistent across replicas: two replicas admitting at once
 * never both fit into the last of a namespace's quota.
 *
 * <p>Non-blocking: the stage completes on a client thread (bridge it back to your context) and never completes
 * exceptionally: failures are outcome values.
 */
public interface QuotaTickets {

    /** The pod annotation that carries a granted ticket from admission to the informer. */
    String ANNOTATION = "vgpu.io/quota-ticket";

    /**
     * Reserves {@code memoryMiB} and {@code cores} in the namespace's quota for one pod being admitted. Call it
     * only for a pod that is not a dry run; a namespace without a GPU quota is {@link Outcome.Unlimited}.
     *
     * @param namespace the pod's namespace
     * @param memoryMiB the pod's GPU memory, summed over its containers and GPUs (for a {@code firstAvailable}
     *                  list, its largest alternative)
     * @param cores     the pod's GPU cores in percent of a card, summed over its containers and GPUs
     */
    CompletionStage<Outcome> issue(String namespace, long memoryMiB, long cores);

    /** What {@link #issue} decided. */
    sealed interface Outcome permits Outcome.Granted, Outcome.Unlimited, Outcome.Refused, Outcome.Unavailable {

        /** Reserved: put {@code annotationValue} on the pod under {@link #ANNOTATION}. */
        record Granted(String annotationValue) implements Outcome {
        }

        /** The namespace has no GPU quota: nothing to reserve, no annotation. */
        record Unlimited() implements Outcome {
        }

        /** Over the quota: refuse the pod with this message (it names the resource, the limit and the usage). */
        record Refused(String message) implements Outcome {
        }

        /** The shared state could not be reached in time: the webhook answers as its failure policy says. */
        record Unavailable(String reason) implements Outcome {
        }
    }
}
