package io.vgpu.gateway.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.ReducedStateItemStore;
import io.vgpu.gateway.core.port.ClusterCache;
import io.vgpu.gateway.core.port.ClusterEvents;
import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.QuotaObservation;
import io.vgpu.state.codec.HamiAnnotations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The gateway's informers: nodes, the pods that matter and ResourceQuotas, delivered to a
 * {@link ClusterEvents} listener as trimmed values and kept in local caches ({@link ClusterCache}).
 *
 * <p>Pods are selected on the server: one informer for pods labelled {@code hami.io/vgpu-node} (they carry
 * an allocation) and one per configured scheduler name ({@code spec.schedulerName=<name>}: pods to be
 * scheduled, before /filter labels them). The selections overlap; this class merges them per pod:
 * <pre>
 *  first seen by any selection ─────────────────► podAdded
 *  seen again with another resourceVersion ─────► podUpdated     (same version from another selection: dropped)
 *  left one selection, still in another ────────► nothing
 *  left every selection / deleted ──────────────► podDeleted
 *  same name, new UID ──────────────────────────► podDeleted(old), podAdded(new)
 * </pre>
 * resourceVersions are compared for equality only, never for order. fabric8's own stores keep only the UID
 * of each object ({@link ReducedStateItemStore}); the trimmed values live here.
 *
 * <p>Threading: fabric8 runs each informer's handlers on its own serial executor; deliveries to the
 * listener are additionally serialised here (one at a time, across informers).
 */
public final class KubeInformers implements ClusterCache, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KubeInformers.class);
    private static final String LABELLED = "label:" + HamiAnnotations.VGPU_NODE;

    private final KubernetesClient client;
    private final InformerConfig config;
    private final ClusterEvents listener;
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();
    private final Map<String, NodeObservation> nodes = new ConcurrentHashMap<>();
    private final Map<String, PodEntry> pods = new ConcurrentHashMap<>();
    private final Map<String, QuotaObservation> quotas = new HashMap<>();
    private final Object delivery = new Object();
    private final Executor feed;
    /** Each informer's store and the keys that reached the caches, until they hold every stored key. */
    private final List<Tracked<?>> tracked = new CopyOnWriteArrayList<>();
    /** Latched by {@link #hasSynced} once the caches held every key the informers had listed. */
    private volatile boolean caughtUp;

    /**
     * Events update the caches and reach the listener at once, on fabric8's handler threads.
     *
     * @param client   the fabric8 client
     * @param config   what to select
     * @param listener who receives the events (called serially; see {@link ClusterEvents})
     */
    public KubeInformers(KubernetesClient client, InformerConfig config, ClusterEvents listener) {
        this(client, config, listener, Runnable::run);
    }

    /**
     * @param client   the fabric8 client
     * @param config   what to select
     * @param listener who receives the events (called serially; see {@link ClusterEvents})
     * @param feed     runs every event (its cache update and listener call) in the order given, e.g. at once; the
     *                 composition root's seam for wrappers (the chaos harness's stale replica runs them late)
     */
    public KubeInformers(KubernetesClient client, InformerConfig config, ClusterEvents listener, Executor feed) {
        this.client = client;
        this.config = config;
        this.listener = listener;
        this.feed = Objects.requireNonNull(feed, "feed");
    }

    /**
     * Starts every informer without blocking. The stage completes once all have listed (synced). While the API
     * server is unreachable the informers keep retrying, so the stage may take long: put a timeout on it and
     * use {@link #hasSynced()} for readiness. A failure to even build an informer fails the stage.
     */
    public CompletionStage<Void> start() {
        try {
            informers.add(nodeInformer());
            informers.add(podInformer(LABELLED, client.pods().inAnyNamespace().withLabel(HamiAnnotations.VGPU_NODE)
                    .runnableInformer(0), p -> p.getMetadata().getLabels() != null
                    && p.getMetadata().getLabels().containsKey(HamiAnnotations.VGPU_NODE)));
            for (String name : config.schedulerNames()) {
                informers.add(podInformer("scheduler:" + name, client.pods().inAnyNamespace()
                        .withField("spec.schedulerName", name).runnableInformer(0),
                        p -> p.getSpec() != null && name.equals(p.getSpec().getSchedulerName())));
            }
            if (config.watchQuotas()) {
                informers.add(quotaInformer());
            }
            CompletableFuture<?>[] started = informers.stream()
                    .map(i -> i.start().toCompletableFuture()).toArray(CompletableFuture[]::new);
            return CompletableFuture.allOf(started);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Whether every informer has listed and every object it lists has reached the caches. fabric8 reports an
     * informer synced once its store holds the list, but the caches fill from its handler callbacks, queued behind
     * that, and through the feed (10 s late on the chaos harness's stale replica). Read as synced before they had,
     * a resync of a rebuilt node found its bound pods missing from the cache, registered the node without their
     * charges, and /filter over-committed a card (the soak of 2026-12-07). Stays true once true.
     */
    @Override
    public boolean hasSynced() {
        if (caughtUp) {
            return true;
        }
        if (informers.isEmpty() || !informers.stream().allMatch(SharedIndexInformer::hasSynced)
                || !tracked.stream().allMatch(Tracked::caughtUp)) {
            return false;
        }
        caughtUp = true;
        tracked.forEach(Tracked::forget);
        return true;
    }

    @Override
    public Optional<ObservedPod> pod(String namespace, String name) {
        PodEntry entry = pods.get(KubeObjects.key(namespace, name));
        return entry == null ? Optional.empty() : Optional.of(entry.pod);
    }

    @Override
    public Optional<NodeObservation> node(String name) {
        return Optional.ofNullable(nodes.get(name));
    }

    @Override
    public Collection<NodeObservation> nodes() {
        return List.copyOf(nodes.values());
    }

    @Override
    public Collection<ObservedPod> pods() {
        List<ObservedPod> out = new ArrayList<>(pods.size());
        pods.values().forEach(e -> out.add(e.pod));
        return out;
    }

    /** Stops every informer. */
    @Override
    public void close() {
        informers.forEach(SharedIndexInformer::stop);
    }

    // ---- nodes ----

    private SharedIndexInformer<Node> nodeInformer() {
        SharedIndexInformer<Node> informer = config.nodeLabels().isEmpty()
                ? client.nodes().runnableInformer(0)
                : client.nodes().withLabels(config.nodeLabels()).runnableInformer(0);
        return prepare(informer, Node.class,
                node -> onNode(KubeObjects.node(node, config.gpuResource())),
                node -> onNodeGone(node.getMetadata().getName()));
    }

    private void onNode(NodeObservation node) {
        NodeObservation previous = nodes.put(node.name(), node);
        if (previous == null || !previous.resourceVersion().equals(node.resourceVersion())) {
            listener.nodeUpserted(node);
        }
    }

    private void onNodeGone(String name) {
        NodeObservation last = nodes.remove(name);
        if (last != null) {
            listener.nodeDeleted(last);
        }
    }

    // ---- pods ----

    private SharedIndexInformer<Pod> podInformer(String source, SharedIndexInformer<Pod> informer,
                                                 Predicate<Pod> selected) {
        return prepare(informer, Pod.class,
                pod -> {
                    if (selected.test(pod)) {
                        onPod(source, KubeObjects.pod(pod));
                    } else {
                        onPodLeft(source, pod.getMetadata().getNamespace(), pod.getMetadata().getName(),
                                pod.getMetadata().getUid());
                    }
                },
                pod -> onPodLeft(source, pod.getMetadata().getNamespace(), pod.getMetadata().getName(),
                        pod.getMetadata().getUid()));
    }

    private void onPod(String source, ObservedPod pod) {
        String key = KubeObjects.key(pod.spec().namespace(), pod.spec().name());
        PodEntry entry = pods.get(key);
        if (entry != null && !entry.pod.spec().uid().equals(pod.spec().uid())) {
            pods.remove(key);
            listener.podDeleted(entry.pod); // the name now belongs to a new incarnation
            entry = null;
        }
        if (entry == null) {
            PodEntry added = new PodEntry(pod);
            added.sources.add(source);
            pods.put(key, added);
            listener.podAdded(pod);
            return;
        }
        entry.sources.add(source);
        if (entry.pod.resourceVersion().equals(pod.resourceVersion())) {
            return; // the same version from another selection, or a resync
        }
        entry.pod = pod;
        listener.podUpdated(pod);
    }

    private void onPodLeft(String source, String namespace, String name, String uid) {
        String key = KubeObjects.key(namespace, name);
        PodEntry entry = pods.get(key);
        if (entry == null || (uid != null && !uid.equals(entry.pod.spec().uid()))) {
            return; // unknown, or an older incarnation's late delete
        }
        entry.sources.remove(source);
        if (entry.sources.isEmpty()) {
            pods.remove(key);
            listener.podDeleted(entry.pod);
        }
    }

    // ---- quotas ----

    private SharedIndexInformer<ResourceQuota> quotaInformer() {
        return prepare(client.resourceQuotas().inAnyNamespace().runnableInformer(0), ResourceQuota.class,
                quota -> {
                    QuotaObservation current = KubeObjects.quota(quota);
                    QuotaObservation previous = quotas.put(KubeObjects.key(quota.getMetadata()), current);
                    listener.quotaChanged(previous, current);
                },
                quota -> {
                    QuotaObservation last = quotas.remove(KubeObjects.key(quota.getMetadata()));
                    listener.quotaDeleted(last != null ? last : KubeObjects.quota(quota));
                });
    }

    // ---- plumbing ----

    /**
     * Reduced store (fabric8 keeps only the UID), the handler (each event through the feed, its key noted for
     * {@link #hasSynced}), and retries after watch errors.
     */
    private <T extends HasMetadata> SharedIndexInformer<T> prepare(SharedIndexInformer<T> informer, Class<T> type,
                                                                   Consumer<T> upsert, Consumer<T> delete) {
        ReducedStateItemStore<T> store = new ReducedStateItemStore<>(ReducedStateItemStore.NAME_KEY_STATE, type,
                client.getKubernetesSerialization(), "metadata.uid");
        Tracked<T> keys = new Tracked<>(store);
        tracked.add(keys);
        informer.itemStore(store);
        informer.addEventHandler(new Handler<>(
                obj -> deliver(keys, store.getKey(obj), () -> upsert.accept(obj)),
                obj -> deliver(keys, store.getKey(obj), () -> delete.accept(obj))));
        informer.exceptionHandler((started, failure) -> {
            LOG.warn("{} informer: {}", type.getSimpleName(), failure.toString());
            return true;
        });
        return informer;
    }

    /**
     * Through the feed, one listener call at a time; a throwing listener is logged, not propagated into fabric8 (its
     * object still counts as delivered).
     */
    private void deliver(Tracked<?> keys, String key, Runnable event) {
        feed.execute(() -> deliverNow(keys, key, event));
    }

    private void deliverNow(Tracked<?> keys, String key, Runnable event) {
        synchronized (delivery) {
            try {
                event.run();
            } catch (RuntimeException e) {
                LOG.error("cluster event listener failed", e);
            } finally {
                if (!caughtUp) {
                    keys.delivered.add(key);
                }
            }
        }
    }

    /**
     * An informer's store and the keys of the objects its events brought to the caches, until the caches caught up
     * with what the store held when it was first seen synced.
     */
    private static final class Tracked<T extends HasMetadata> {
        private final ReducedStateItemStore<T> store;
        private final Set<String> delivered = ConcurrentHashMap.newKeySet();
        /** The store's keys when first seen synced, less those delivered or gone since; null before. */
        private Set<String> waiting;

        Tracked(ReducedStateItemStore<T> store) {
            this.store = store;
        }

        /**
         * Whether every object the store held when first asked (its list, and what came after it until then) has
         * reached the caches or left the store since. Only those: under steady churn some later object is always on
         * its way, and waiting for none would never end.
         */
        synchronized boolean caughtUp() {
            if (waiting == null) {
                waiting = store.keySet().collect(Collectors.toCollection(HashSet::new));
            }
            waiting.removeIf(key -> delivered.contains(key) || store.get(key) == null);
            return waiting.isEmpty();
        }

        synchronized void forget() {
            delivered.clear();
            waiting = null;
        }
    }

    /** A pod known to at least one selection. Guarded by {@link #delivery}. */
    private static final class PodEntry {
        private volatile ObservedPod pod; // written under the lock, read by ClusterCache lookups
        private final Set<String> sources = new HashSet<>(4);

        PodEntry(ObservedPod pod) {
            this.pod = pod;
        }
    }

    /** Adds and updates go to one callback, deletes (tombstones included) to another. */
    private static final class Handler<T> implements ResourceEventHandler<T> {
        private final Consumer<T> upsert;
        private final Consumer<T> delete;

        Handler(Consumer<T> upsert, Consumer<T> delete) {
            this.upsert = upsert;
            this.delete = delete;
        }

        @Override
        public void onAdd(T obj) {
            upsert.accept(obj);
        }

        @Override
        public void onUpdate(T oldObj, T newObj) {
            upsert.accept(newObj);
        }

        @Override
        public void onDelete(T obj, boolean deletedFinalStateUnknown) {
            delete.accept(obj);
        }
    }
}
