package io.vgpu.gateway.dra;

import io.vgpu.gateway.core.port.QuotaTickets;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** {@link QuotaTickets} for tests: answers a fixed outcome and records every call. */
public final class FakeQuotaTickets implements QuotaTickets {

    /** @param namespace as given; @param memoryMiB as given; @param cores as given */
    public record Call(String namespace, long memoryMiB, long cores) {
    }

    private final Outcome outcome;
    private final List<Call> calls = new ArrayList<>();

    /** @param outcome what every call answers */
    public FakeQuotaTickets(Outcome outcome) {
        this.outcome = outcome;
    }

    /** The calls so far. */
    public synchronized List<Call> calls() {
        return List.copyOf(calls);
    }

    @Override
    public synchronized CompletionStage<Outcome> issue(String namespace, long memoryMiB, long cores) {
        calls.add(new Call(namespace, memoryMiB, cores));
        return CompletableFuture.completedFuture(outcome);
    }
}
