package io.vgpu.gateway.scheduling;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.CompletionStage;

/**
 * Ingest's store writes are answers to informer events nobody waits for: a failed one is logged, never thrown back
 * at the informer, and the nets ({@link IngestRepair}) write it again.
 */
final class IngestFailures {

    private static final Logger LOG = LoggerFactory.getLogger(IngestFailures.class);

    private IngestFailures() {
    }

    /** {@code stage}, logging its failure as {@code ingest: <what> failed}. */
    static CompletionStage<?> logged(String what, CompletionStage<?> stage) {
        return stage.whenComplete((r, e) -> {
            if (e != null) {
                LOG.warn("ingest: {} failed: {}", what, e.toString());
            }
        });
    }
}
