package io.vgpu.deviceplugin.dra.prepare;

import io.vgpu.deviceplugin.cdi.DriverLibraries;
import io.vgpu.deviceplugin.core.outcome.Outcome;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * NodePrepareResources and NodeUnprepareResources over the ports (spec/dra-spec.md §4.3).
 *
 * <pre>
 *  prepare(claims), per claim UID (each gets exactly one answer):
 *    in the checkpoint ─► rewrite its files (idempotent) ─► the checkpointed answer
 *    else GET claim ─► {@link ClaimPlanner} ─► {@link ContainerRule} over the pods it is reserved for
 *         ─► {@link ShareLedger} against every prepared claim (and those admitted before it in this call)
 *         ─► write cache dir + CDI spec ─► save the checkpoint ─► its devices
 *    a step that fails fails that claim only; a failed checkpoint save undoes the files it covered
 *  unprepare(claims): in the checkpoint ─► remove files ─► save the checkpoint without it; unknown ─► ok
 * </pre>
 *
 * <p>Calls run one at a time, in arrival order (as the Go helper serializes them by default): the
 * guard's check and the record of what it admitted are therefore atomic for every GPU, and two calls
 * for one claim never interleave. Within a call the API reads run in parallel. Pure: I/O only
 * through the ports; thread-safe.
 */
public final class PrepareService {

    private final ClaimPlanner planner;
    private final ShareLedger ledger;
    private final DriverLibraries.Mode libraries;
    private final ClaimSource source;
    private final PreparedFiles files;
    private final CheckpointStore checkpoint;
    private final Object lock = new Object();
    private CompletableFuture<?> tail = CompletableFuture.completedFuture(null);
    private volatile Map<String, PreparedClaim> prepared = Map.of();

    /** @param libraries {@code VGPU_DRA_DRIVER_LIBRARIES} */
    public PrepareService(ClaimPlanner planner, DriverLibraries.Mode libraries, ClaimSource source, PreparedFiles files,
                          CheckpointStore checkpoint) {
        this.planner = Objects.requireNonNull(planner, "planner");
        this.ledger = new ShareLedger(planner.gpus());
        this.libraries = Objects.requireNonNull(libraries, "libraries");
        this.source = Objects.requireNonNull(source, "source");
        this.files = Objects.requireNonNull(files, "files");
        this.checkpoint = Objects.requireNonNull(checkpoint, "checkpoint");
    }

    /** Loads the checkpoint; fails (and serves nothing) when it exists but cannot be read. */
    public CompletionStage<Map<String, PreparedClaim>> start() {
        return serialized(() -> checkpoint.load().thenApply(loaded -> {
            prepared = Map.copyOf(loaded);
            return prepared;
        }));
    }

    /** The claims prepared now, by UID (a snapshot). */
    public Map<String, PreparedClaim> prepared() {
        return prepared;
    }

    /** Prepares {@code claims}; the map has one entry per distinct UID. Never fails as a whole. */
    public CompletionStage<Map<String, ClaimResult>> prepare(List<ClaimRef> claims) {
        return serialized(() -> new PrepareCall(distinct(claims)).run());
    }

    /** Unprepares {@code claims}: UID → error, "" on success (also for claims never prepared). */
    public CompletionStage<Map<String, String>> unprepare(List<ClaimRef> claims) {
        return serialized(() -> new UnprepareCall(files, checkpoint, prepared, next -> prepared = next)
                .run(distinct(claims).values()));
    }

    /** One NodePrepareResources call. */
    private final class PrepareCall {
        private final Map<String, ClaimRef> asked;
        private final Map<String, ClaimResult> answers = new LinkedHashMap<>();
        private final Map<String, PreparedClaim> planned = new LinkedHashMap<>();
        private final Map<String, ClaimObject> objects = new LinkedHashMap<>();

        PrepareCall(Map<String, ClaimRef> asked) {
            this.asked = asked;
        }

        CompletionStage<Map<String, ClaimResult>> run() {
            List<PreparedClaim> repeated = new ArrayList<>();
            List<ClaimRef> fresh = new ArrayList<>();
            for (ClaimRef ref : asked.values()) {
                PreparedClaim p = prepared.get(ref.uid());
                if (p != null) {
                    repeated.add(p);
                } else {
                    fresh.add(ref);
                }
            }
            return rewrite(repeated)
                    .thenCompose(v -> fresh.isEmpty() ? done() : safely(files::inspect).thenCompose(host -> plan(fresh, host)))
                    .exceptionally(e -> {
                        fresh.forEach(ref -> answerIfAbsent(ref.uid(), new ClaimResult.Failed(
                                "cannot prepare claim " + ref + ": " + cause(e))));
                        return null;
                    })
                    .thenApply(v -> ordered());
        }

        /** The checkpointed answer, after making sure its files are there (e.g. /var/run/cdi was emptied by a reboot). */
        private CompletableFuture<Void> rewrite(List<PreparedClaim> repeated) {
            List<CompletableFuture<Void>> writes = new ArrayList<>();
            for (PreparedClaim p : repeated) {
                writes.add(safely(() -> files.write(p)).handle((v, e) -> {
                    answer(p.ref().uid(), e == null ? new ClaimResult.Prepared(p.devices())
                            : new ClaimResult.Failed("claim " + p.ref() + " is prepared, but its files cannot be restored: "
                            + cause(e).getMessage()));
                    return null;
                }));
            }
            return CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new));
        }

        private CompletableFuture<Void> plan(List<ClaimRef> fresh, PreparedFiles.Host host) {
            DriverLibraries libs = DriverLibraries.choose(libraries, planner.gpus().minors(), host.staticSpecs());
            List<CompletableFuture<Void>> reads = new ArrayList<>();
            for (ClaimRef ref : fresh) {
                reads.add(safely(() -> source.claim(ref)).handle((found, e) -> {
                    if (e != null) {
                        fail(ref, "cannot read ResourceClaim " + ref + ": " + cause(e).getMessage());
                    } else if (found.isEmpty()) {
                        fail(ref, "ResourceClaim " + ref + " does not exist; nothing prepared");
                    } else {
                        Outcome<PreparedClaim> outcome = planner.plan(ref, found.get(), libs, host.hookFiles());
                        if (outcome.isOk()) {
                            planned(ref.uid(), outcome.value(), found.get());
                        } else {
                            answer(ref.uid(), new ClaimResult.Failed(outcome.error()));
                        }
                    }
                    return null;
                }));
            }
            return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new))
                    .thenCompose(v -> new PodCheck(source, prepared.values(), planned, objects).run())
                    .thenCompose(violations -> {
                        violations.forEach((uid, message) -> fail(planned.remove(uid).ref(), message));
                        return admit();
                    });
        }

        /** The guard, then the files, then the checkpoint. */
        private CompletableFuture<Void> admit() {
            Map<String, PreparedClaim> next = new LinkedHashMap<>(prepared);
            List<PreparedClaim> admitted = new ArrayList<>();
            for (ClaimRef ref : asked.values()) {
                PreparedClaim p = planned.get(ref.uid());
                if (p == null) {
                    continue;
                }
                Outcome<Boolean> room = ledger.admit(next.values(), p);
                if (room.isOk()) {
                    next.put(ref.uid(), p);
                    admitted.add(p);
                } else {
                    fail(ref, "ResourceClaim " + ref + " cannot be prepared: " + room.error());
                }
            }
            Map<String, CompletableFuture<Void>> writes = new LinkedHashMap<>();
            admitted.forEach(p -> writes.put(p.ref().uid(), safely(() -> files.write(p))));
            return CompletableFuture.allOf(writes.values().toArray(CompletableFuture[]::new)).handle((v, e) -> null)
                    .thenCompose(v -> {
                        List<PreparedClaim> written = new ArrayList<>();
                        for (PreparedClaim p : admitted) {
                            CompletableFuture<Void> w = writes.get(p.ref().uid());
                            if (w.isCompletedExceptionally()) {
                                next.remove(p.ref().uid());
                                undo(p);
                                fail(p.ref(), "cannot write the files of claim " + p.ref() + ": " + message(w));
                            } else {
                                written.add(p);
                            }
                        }
                        return written.isEmpty() ? done() : save(next, written);
                    });
        }

        private CompletableFuture<Void> save(Map<String, PreparedClaim> next, List<PreparedClaim> written) {
            return safely(() -> checkpoint.save(next)).handle((v, e) -> {
                for (PreparedClaim p : written) {
                    if (e == null) {
                        answer(p.ref().uid(), new ClaimResult.Prepared(p.devices()));
                    } else {
                        undo(p);
                        fail(p.ref(), "cannot save the checkpoint for claim " + p.ref() + ": " + cause(e).getMessage());
                    }
                }
                if (e == null) {
                    prepared = Map.copyOf(next);
                }
                return null;
            });
        }

        private void undo(PreparedClaim p) {
            safely(() -> files.remove(p));
        }

        private void fail(ClaimRef ref, String message) {
            answer(ref.uid(), new ClaimResult.Failed(message));
        }

        /** Answers and plans arrive on the ports' threads: every access to them is synchronized. */
        private synchronized void answer(String uid, ClaimResult result) {
            answers.put(uid, result);
        }

        private synchronized void answerIfAbsent(String uid, ClaimResult result) {
            answers.putIfAbsent(uid, result);
        }

        private synchronized void planned(String uid, PreparedClaim claim, ClaimObject object) {
            planned.put(uid, claim);
            objects.put(uid, object);
        }

        private synchronized Map<String, ClaimResult> ordered() {
            Map<String, ClaimResult> out = new LinkedHashMap<>();
            asked.keySet().forEach(uid -> out.put(uid, answers.getOrDefault(uid,
                    new ClaimResult.Failed("claim " + asked.get(uid) + " was not prepared (internal error)"))));
            return out;
        }

        private CompletableFuture<Void> done() {
            return CompletableFuture.completedFuture(null);
        }
    }

    private <T> CompletableFuture<T> serialized(Supplier<CompletionStage<T>> task) {
        synchronized (lock) {
            CompletableFuture<T> next = tail.handle((v, e) -> null).thenCompose(v -> safely(task));
            tail = next;
            return next;
        }
    }

    private static Map<String, ClaimRef> distinct(Collection<ClaimRef> claims) {
        Map<String, ClaimRef> out = new LinkedHashMap<>();
        claims.forEach(c -> out.putIfAbsent(c.uid(), c));
        return out;
    }

    /** A synchronous throw becomes a failed stage. */
    static <T> CompletableFuture<T> safely(Supplier<? extends CompletionStage<T>> step) {
        try {
            return step.get().toCompletableFuture();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    static Throwable cause(Throwable e) {
        Throwable c = e;
        while ((c instanceof CompletionException || c instanceof ExecutionException)
                && c.getCause() != null) {
            c = c.getCause();
        }
        return c;
    }

    static String message(CompletableFuture<?> failed) {
        return failed.handle((v, e) -> e == null ? "" : String.valueOf(cause(e).getMessage())).join();
    }
}
