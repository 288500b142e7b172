package io.vgpu.gateway.core.port;

import io.vgpu.gateway.core.dra.ClaimTemplate;

import java.util.concurrent.CompletionStage;

/**
 * Where the webhook makes sure of the ResourceClaimTemplates of translated pods. Non-blocking: the stage completes
 * on a client thread and never exceptionally (failures are outcomes).
 */
public interface ClaimTemplates {

    /** Creates {@code template} unless it exists; an existing one with the same content is success. */
    CompletionStage<Outcome> ensure(ClaimTemplate template);

    /** What {@link #ensure} found. */
    sealed interface Outcome permits Outcome.Created, Outcome.Existed, Outcome.Conflict, Outcome.Failed {

        /** Created now. */
        record Created() implements Outcome {
        }

        /** Already there with the same content (AlreadyExists, then the content hash checked). */
        record Existed() implements Outcome {
        }

        /** @param message a template of that name exists with other content: what to tell the user */
        record Conflict(String message) implements Outcome {
        }

        /** @param reason the API server could not be reached or refused the write */
        record Failed(String reason) implements Outcome {
        }
    }
}
