package io.vgpu.gateway.dra;

import io.vgpu.gateway.core.dra.ClaimTemplate;
import io.vgpu.gateway.core.port.ClaimTemplates;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** An in-memory {@link ClaimTemplates} for tests: keeps what was created, by namespace/name, with the same rules. */
public final class MemoryClaimTemplates implements ClaimTemplates {

    /** The conflict message this store gives. */
    public static final String CONFLICT = "a ResourceClaimTemplate of that name exists with other content";

    private final Map<String, ClaimTemplate> stored = new LinkedHashMap<>();
    private final List<ClaimTemplate> created = new ArrayList<>();

    /** Puts {@code template} in place as if created before. */
    public synchronized void preload(ClaimTemplate template) {
        stored.put(template.namespace() + "/" + template.name(), template);
    }

    /** The templates {@link #ensure} created, in order. */
    public synchronized List<ClaimTemplate> created() {
        return List.copyOf(created);
    }

    @Override
    public synchronized CompletionStage<Outcome> ensure(ClaimTemplate template) {
        ClaimTemplate there = stored.get(template.namespace() + "/" + template.name());
        if (there == null) {
            stored.put(template.namespace() + "/" + template.name(), template);
            created.add(template);
            return CompletableFuture.completedFuture(new Outcome.Created());
        }
        return CompletableFuture.completedFuture(there.contentHash().equals(template.contentHash())
                ? new Outcome.Existed() : new Outcome.Conflict(CONFLICT));
    }
}
