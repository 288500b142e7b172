package io.vgpu.deviceplugin.mig;

import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.deviceplugin.core.mig.MigAllowlist;
import io.vgpu.deviceplugin.core.mig.MigCapability;
import io.vgpu.deviceplugin.core.mig.MigKey;
import io.vgpu.deviceplugin.core.allocate.MigReservations;
import io.vgpu.deviceplugin.core.mig.NvmlMigProfile;
import io.vgpu.deviceplugin.core.outcome.Outcome;
import io.vgpu.deviceplugin.core.cluster.PodView;
import io.vgpu.deviceplugin.core.mig.RealizedMig;
import io.vgpu.deviceplugin.core.port.MigPartitioner;
import io.vgpu.hamicore.GpuInstance;
import io.vgpu.hamicore.Nvml;
import io.vgpu.hamicore.NvmlException;
import io.vgpu.state.model.MigAllocation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The one authority over dynamic-MIG instances on this node (spec §5.2): which instance realises which
 * scheduler reservation ({@link MigKey}), created exactly as reserved and reclaimed when no live pod
 * reserves it any more. Every NVML change runs on one dedicated worker thread ("mig-apply"), so changes
 * never overlap and JNI never runs on an event loop; HAMi's apply lock file exists meanwhile.
 *
 * <pre>
 *  startUp(pods): GPUs that live pods reserve or processes use are left as they are; the other
 *                 allow-listed GPUs get MIG mode on and every instance destroyed; the profiles each GPU
 *                 offers are read; instances recorded on live pods (runtime identity) are adopted
 *  realize(keys): managed key ─► reused │ new key ─► MIG on ─► GPU + compute instance ─► MIG UUID
 *                 any failure ─► the instances this call created are destroyed ─► Failed
 *  reconcile(reserved, epoch): managed instances outside {@code reserved}, created before the epoch
 *                 the caller read before listing the pods, are destroyed
 * </pre>
 *
 * Only allow-listed GPUs are ever touched. Thread-safe; stages complete on the worker.
 */
public final class MigManager implements MigPartitioner, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MigManager.class);

    private final MigHardware hardware;
    private final MigAllowlist allowlist;
    private final MigApplyLock lock;
    private final Map<String, GpuFacts> gpus = new LinkedHashMap<>();
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "mig-apply");
        t.setDaemon(true);
        return t;
    });
    private final AtomicLong epoch = new AtomicLong();
    // worker thread only
    private final Map<MigKey, Managed> managed = new LinkedHashMap<>();
    private volatile Map<String, MigCapability> capabilities = Map.of();

    /**
     * @param gpus      the GPUs this plugin serves; only those whose model the allowlist names are managed
     * @param applyLock HAMi's apply lock file, as this process sees it
     */
    public MigManager(Nvml nvml, List<GpuFacts> gpus, MigAllowlist allowlist, Path applyLock) {
        this.hardware = new MigHardware(nvml);
        this.allowlist = allowlist;
        this.lock = new MigApplyLock(applyLock);
        for (GpuFacts g : gpus) {
            if (!allowlist.profilesFor(g.name()).isEmpty()) {
                this.gpus.put(g.uuid(), g);
            }
        }
    }

    /**
     * The start-up reset and adoption (see the class comment).
     *
     * @param pods the pods on this node, or empty when they could not be listed: then no GPU is reset
     *             (nothing can prove it idle) and nothing is adopted
     */
    public CompletionStage<StartReport> startUp(Optional<List<PodView>> pods) {
        return onWorker(() -> {
            lock.reset();
            return lock.hold(() -> startUpNow(pods));
        });
    }

    private StartReport startUpNow(Optional<List<PodView>> pods) {
        List<String> reset = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        List<MigAllocation> live = pods.map(MigReservations::liveReservations).orElse(List.of());
        Set<String> reserved = live.stream().map(MigAllocation::gpuUuid).collect(Collectors.toSet());
        for (GpuFacts g : gpus.values()) {
            if (pods.isEmpty() || reserved.contains(g.uuid()) || hardware.busy(g.index(), g.uuid())) {
                kept.add(g.uuid());
                continue;
            }
            Outcome<Integer> done = hardware.ensureMigMode(g.index(), g.uuid()).then(on -> hardware.destroyAll(g.index(), g.uuid()));
            if (done.isOk()) {
                reset.add(g.uuid());
            } else {
                problems.add(done.error());
            }
        }
        Map<String, MigCapability> offered = new LinkedHashMap<>();
        for (GpuFacts g : gpus.values()) {
            try {
                offered.put(g.uuid(), MigCapability.of(hardware.profiles(g.index()), allowlist.profilesFor(g.name())));
            } catch (NvmlException e) {
                problems.add("GPU " + g.uuid() + ": cannot read its MIG profiles: " + e.getMessage());
            }
        }
        capabilities = Map.copyOf(offered);
        int adopted = 0;
        for (MigAllocation a : live) {
            if (a.realized()) {
                Optional<String> problem = adopt(a);
                if (problem.isEmpty()) {
                    adopted++;
                } else {
                    problems.add(problem.get());
                }
            }
        }
        return new StartReport(reset, kept, adopted, problems);
    }

    /** Takes a recorded instance over when NVML shows exactly it: same GPU instance, placement, profile, compute instance, UUID. */
    private Optional<String> adopt(MigAllocation a) {
        MigKey key = MigKey.of(a);
        GpuFacts g = gpus.get(a.gpuUuid());
        Optional<NvmlMigProfile> profile = Optional.ofNullable(capabilities.get(a.gpuUuid())).flatMap(c -> c.profile(a.profile()));
        if (g == null || profile.isEmpty()) {
            return Optional.of("recorded MIG " + key + " is on no dynamic-MIG GPU or profile of this node: not adopted");
        }
        int gi = (int) a.gpuInstanceId().getAsLong();
        int ci = (int) a.computeInstanceId().getAsLong();
        try {
            boolean live = hardware.instances(g.index()).stream().anyMatch(i -> matches(i, gi, ci, a, profile.get()))
                    && hardware.migUuid(g.index(), gi, ci).filter(a.migUuid()::equals).isPresent();
            if (!live) {
                return Optional.of("recorded MIG " + key + " (" + a.migUuid() + ") is not live: not adopted");
            }
        } catch (NvmlException e) {
            return Optional.of("recorded MIG " + key + ": cannot check it: " + e.getMessage());
        }
        managed.put(key, new Managed(new RealizedMig(key, gi, ci, a.migUuid(), false), 0));
        return Optional.empty();
    }

    private static boolean matches(GpuInstance i, int gi, int ci, MigAllocation a, NvmlMigProfile profile) {
        return i.id() == gi && i.profileId() == profile.nvmlId() && i.placement().start() == a.placementStart()
                && i.placement().size() == a.placementSize() && i.computeInstanceIds().contains(ci);
    }

    /** What each managed GPU offers (read at start-up): the register's {@code migProfiles}. */
    public Map<String, MigCapability> capabilities() {
        return capabilities;
    }

    /**
     * The counter a reconciler reads BEFORE it lists the pods: instances created after it are never
     * reclaimed by that round (their pod may be missing from the list it got).
     */
    public long epoch() {
        return epoch.get();
    }

    @Override
    public CompletionStage<Outcome<List<RealizedMig>>> realize(List<MigKey> reservations) {
        List<MigKey> keys = List.copyOf(reservations);
        return onWorker(() -> lock.hold(() -> realizeNow(keys)));
    }

    private Outcome<List<RealizedMig>> realizeNow(List<MigKey> keys) {
        List<RealizedMig> createdNow = new ArrayList<>();
        try {
            return realizeEach(keys, createdNow);
        } catch (RuntimeException unexpected) {
            createdNow.forEach(this::destroyManaged);
            return Outcome.failed("MIG instances could not be created: " + unexpected);
        }
    }

    private Outcome<List<RealizedMig>> realizeEach(List<MigKey> keys, List<RealizedMig> createdNow) {
        List<RealizedMig> out = new ArrayList<>();
        for (MigKey key : keys) {
            Managed existing = managed.get(key);
            if (existing != null) {
                out.add(new RealizedMig(key, existing.instance.gpuInstanceId(), existing.instance.computeInstanceId(),
                        existing.instance.migUuid(), false));
                continue;
            }
            Outcome<RealizedMig> made = create(key);
            if (!made.isOk()) {
                createdNow.forEach(this::destroyManaged);
                return Outcome.failed(made.error());
            }
            managed.put(key, new Managed(made.value(), epoch.incrementAndGet()));
            createdNow.add(made.value());
            out.add(made.value());
            LOG.info("created MIG {}: {} (GPU instance {}, compute instance {})", key, made.value().migUuid(),
                    made.value().gpuInstanceId(), made.value().computeInstanceId());
        }
        return Outcome.ok(out);
    }

    private Outcome<RealizedMig> create(MigKey key) {
        GpuFacts g = gpus.get(key.gpuUuid());
        if (g == null) {
            return Outcome.failed("GPU " + key.gpuUuid() + " is not a dynamic-MIG GPU of this node (not served, or its model "
                    + "is not in migProfileAllowlist)");
        }
        Optional<NvmlMigProfile> profile = Optional.ofNullable(capabilities.get(key.gpuUuid())).flatMap(c -> c.profile(key.profile()));
        if (profile.isEmpty()) {
            return Outcome.failed("MIG profile " + key.profile() + " is not offered on GPU " + key.gpuUuid());
        }
        if (!profile.get().placements().contains(key.placement())) {
            return Outcome.failed("the scheduler reserved placement " + key.placement() + " that profile " + key.profile()
                    + " cannot take on GPU " + key.gpuUuid());
        }
        return hardware.ensureMigMode(g.index(), g.uuid()).then(on -> hardware.create(g.index(), key, profile.get()));
    }

    @Override
    public CompletionStage<Void> release(List<RealizedMig> realized) {
        List<RealizedMig> created = realized.stream().filter(RealizedMig::created).toList();
        if (created.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return onWorker(() -> lock.hold(() -> {
            created.forEach(this::destroyManaged);
            return null;
        }));
    }

    /**
     * Destroys the managed instances whose key is not in {@code reserved} and that existed at
     * {@code snapshot} ({@link #epoch()} read before the pods were listed).
     *
     * @return the keys destroyed
     */
    public CompletionStage<List<MigKey>> reconcile(Set<MigKey> reserved, long snapshot) {
        Set<MigKey> keep = Set.copyOf(reserved);
        return onWorker(() -> {
            List<Managed> orphans = managed.entrySet().stream()
                    .filter(e -> !keep.contains(e.getKey()) && e.getValue().epoch <= snapshot)
                    .map(Map.Entry::getValue).toList();
            if (orphans.isEmpty()) {
                return List.of();
            }
            return lock.hold(() -> {
                List<MigKey> destroyed = new ArrayList<>();
                for (Managed m : orphans) {
                    if (destroyManaged(m.instance)) {
                        destroyed.add(m.instance.key());
                        LOG.info("reclaimed MIG {} ({}): no live pod reserves it", m.instance.key(), m.instance.migUuid());
                    }
                }
                return destroyed;
            });
        });
    }

    /** The managed instances now. */
    public CompletionStage<List<RealizedMig>> managed() {
        return onWorker(() -> managed.values().stream().map(m -> m.instance).toList());
    }

    private boolean destroyManaged(RealizedMig instance) {
        GpuFacts g = gpus.get(instance.key().gpuUuid());
        boolean gone = g != null && hardware.destroy(g.index(), instance.gpuInstanceId(), instance.computeInstanceId(),
                instance.key());
        if (gone) {
            managed.remove(instance.key());
        }
        return gone;
    }

    private <T> CompletionStage<T> onWorker(Supplier<T> task) {
        try {
            return CompletableFuture.supplyAsync(task, worker);
        } catch (RuntimeException rejected) {
            return CompletableFuture.failedFuture(rejected);
        }
    }

    /** Stops the worker after the change in progress. Idempotent. */
    @Override
    public void close() {
        worker.shutdown();
    }

    private record Managed(RealizedMig instance, long epoch) {
    }

    /**
     * What the start-up did.
     *
     * @param reset    GPUs whose instances were destroyed (MIG mode on)
     * @param kept     GPUs left as they were (reserved by live pods, processes running, or pods unknown)
     * @param adopted  recorded instances taken over
     * @param problems what could not be done, one line each
     */
    public record StartReport(List<String> reset, List<String> kept, int adopted, List<String> problems) {

        /** Copies the lists. */
        public StartReport {
            reset = List.copyOf(reset);
            kept = List.copyOf(kept);
            problems = List.copyOf(problems);
        }
    }
}
