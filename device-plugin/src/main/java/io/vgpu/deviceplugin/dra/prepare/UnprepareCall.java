package io.vgpu.deviceplugin.dra.prepare;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * One NodeUnprepareResources call of {@link PrepareService} (run one at a time by it): the files of
 * every prepared claim asked for are removed, then the checkpoint is saved without them. A claim that
 * is not prepared succeeds; a claim whose files cannot be removed keeps its entry and answers the
 * error (the kubelet retries); when the save fails, the removed claims answer that, and a retry
 * removes again (removal is idempotent).
 */
final class UnprepareCall {

    private final PreparedFiles files;
    private final CheckpointStore checkpoint;
    private final Map<String, PreparedClaim> prepared;
    private final Consumer<Map<String, PreparedClaim>> saved;

    /**
     * @param prepared the claims prepared before the call
     * @param saved    receives what is prepared after a successful save
     */
    UnprepareCall(PreparedFiles files, CheckpointStore checkpoint, Map<String, PreparedClaim> prepared,
                  Consumer<Map<String, PreparedClaim>> saved) {
        this.files = files;
        this.checkpoint = checkpoint;
        this.prepared = prepared;
        this.saved = saved;
    }

    CompletionStage<Map<String, String>> run(Collection<ClaimRef> claims) {
        Map<String, String> answers = new LinkedHashMap<>();
        Map<String, PreparedClaim> gone = new LinkedHashMap<>();
        for (ClaimRef ref : claims) {
            answers.put(ref.uid(), "");
            PreparedClaim p = prepared.get(ref.uid());
            if (p != null) {
                gone.put(ref.uid(), p);
            }
        }
        Map<String, CompletableFuture<Void>> removals = new LinkedHashMap<>();
        gone.forEach((uid, p) -> removals.put(uid, PrepareService.safely(() -> files.remove(p))));
        return CompletableFuture.allOf(removals.values().toArray(CompletableFuture[]::new)).handle((v, e) -> null)
                .thenCompose(v -> {
                    Map<String, PreparedClaim> next = new LinkedHashMap<>(prepared);
                    removals.forEach((uid, removal) -> {
                        if (removal.isCompletedExceptionally()) {
                            answers.put(uid, "cannot remove the files of claim " + gone.get(uid).ref() + ": "
                                    + PrepareService.message(removal));
                        } else {
                            next.remove(uid);
                        }
                    });
                    if (next.size() == prepared.size()) {
                        return CompletableFuture.completedFuture(answers);
                    }
                    return PrepareService.safely(() -> checkpoint.save(next)).handle((ok, error) -> {
                        if (error != null) {
                            gone.keySet().stream().filter(uid -> !next.containsKey(uid)).forEach(uid -> answers.put(uid,
                                    "files removed, but the checkpoint cannot be saved: "
                                            + PrepareService.cause(error).getMessage() + "; retry removes them again"));
                        } else {
                            saved.accept(Map.copyOf(next));
                        }
                        return answers;
                    });
                });
    }
}
