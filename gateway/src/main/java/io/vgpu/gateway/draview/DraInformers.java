package io.vgpu.gateway.draview;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.ReducedStateItemStore;
import io.vgpu.gateway.core.draview.DraLedger;
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.dra.ResourceSliceCodec;
import io.vgpu.state.dra.SliceObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The gateway's DRA informers ({@code resource.k8s.io/v1}): ResourceSlices into the {@link DraLedger} (driver
 * filtered here: the API server's {@code spec.driver} field selector is not served by every test server), the
 * ResourceClaims allocated from them, and the pods that carry a quota ticket into the {@link TicketIngest}.
 *
 * <p>Ticketed pods keep their scheduler name (kube-scheduler allocates their claims) and carry no HAMi label, so
 * no server-side selection finds them: the pod informer lists every pod, as HAMi's own scheduler does, and keeps
 * only the ticketed ones (fabric8's store holds just the key and UID of each pod).
 *
 * <p>A cluster without {@code resource.k8s.io/v1} (before 1.34) answers 404: the informers keep retrying, with one
 * warning each, and the view stays empty. Threading: every event is handled under one lock, in order.
 */
final class DraInformers implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DraInformers.class);

    private final KubernetesClient client;
    private final DraLedger ledger;
    private final TicketIngest tickets;
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();
    private final Map<String, TicketedPod> ticketed = new ConcurrentHashMap<>();
    private final Set<String> ticketNamespaces = ConcurrentHashMap.newKeySet();
    private final Object delivery = new Object();

    DraInformers(KubernetesClient client, DraLedger ledger, TicketIngest tickets) {
        this.client = Objects.requireNonNull(client, "client");
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.tickets = Objects.requireNonNull(tickets, "tickets");
    }

    /** Starts the informers without blocking; the stage completes when all have listed once. */
    CompletionStage<Void> start() {
        try {
            informers.add(prepare(client.resources(ResourceSlice.class).runnableInformer(0), ResourceSlice.class,
                    this::slice, s -> deliver(() -> ledger.removeSlice(s.getMetadata().getName()))));
            informers.add(prepare(client.resources(ResourceClaim.class).inAnyNamespace().runnableInformer(0),
                    ResourceClaim.class, c -> deliver(() -> ledger.putClaim(DraObjects.claim(c))),
                    c -> deliver(() -> ledger.removeClaim(c.getMetadata().getNamespace(), c.getMetadata().getName()))));
            informers.add(prepare(client.pods().inAnyNamespace().runnableInformer(0), Pod.class, this::pod,
                    p -> deliver(() -> podGone(key(p), p.getMetadata().getUid()))));
            return CompletableFuture.allOf(informers.stream().map(i -> i.start().toCompletableFuture())
                    .toArray(CompletableFuture[]::new));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Whether every informer has listed. */
    boolean hasSynced() {
        return !informers.isEmpty() && informers.stream().allMatch(SharedIndexInformer::hasSynced);
    }

    /** The ticketed pods known now. */
    Collection<TicketedPod> ticketedPods() {
        return List.copyOf(ticketed.values());
    }

    /** Namespaces where a ticketed pod was ever seen (for {@link TicketIngest#repair}). */
    Collection<String> ticketNamespaces() {
        return List.copyOf(ticketNamespaces);
    }

    @Override
    public void close() {
        informers.forEach(SharedIndexInformer::stop);
    }

    private void slice(ResourceSlice slice) {
        String json = client.getKubernetesSerialization().asJson(slice);
        deliver(() -> {
            Decoded<SliceObject> decoded = ResourceSliceCodec.decode(json);
            if (decoded.isOk()) {
                ledger.putSlice(slice.getMetadata().getName(), decoded.value().content());
            } else {
                ledger.removeSlice(slice.getMetadata().getName());
                LOG.debug("ResourceSlice {} not read: {}", slice.getMetadata().getName(), decoded);
            }
        });
    }

    private void pod(Pod pod) {
        deliver(() -> {
            String key = key(pod);
            TicketedPod now = DraObjects.ticketed(pod).orElse(null);
            if (now == null) {
                podGone(key, pod.getMetadata().getUid()); // the annotation was removed: its charge goes with it
                return;
            }
            TicketedPod before = ticketed.put(key, now);
            ticketNamespaces.add(now.namespace());
            if (before != null && !before.uid().equals(now.uid())) {
                tickets.deleted(before);
            }
            if (before == null || !before.equals(now)) {
                tickets.upsert(now);
            }
        });
    }

    private void podGone(String key, String uid) {
        TicketedPod last = ticketed.get(key);
        if (last != null && (uid == null || uid.equals(last.uid()))) {
            ticketed.remove(key);
            tickets.deleted(last);
        }
    }

    private static String key(HasMetadata o) {
        return o.getMetadata().getNamespace() + "/" + o.getMetadata().getName();
    }

    private <T extends HasMetadata> SharedIndexInformer<T> prepare(SharedIndexInformer<T> informer, Class<T> type,
                                                                   Consumer<T> upsert, Consumer<T> delete) {
        informer.itemStore(new ReducedStateItemStore<>(ReducedStateItemStore.NAME_KEY_STATE, type,
                client.getKubernetesSerialization(), "metadata.uid"));
        informer.addEventHandler(new ResourceEventHandler<>() {
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
        });
        AtomicBoolean warned = new AtomicBoolean();
        informer.exceptionHandler((started, failure) -> {
            if (warned.compareAndSet(false, true)) {
                LOG.warn("{} informer: {} (retrying; the DRA view stays empty until it lists)", type.getSimpleName(),
                        failure.toString());
            } else {
                LOG.debug("{} informer: {}", type.getSimpleName(), failure.toString());
            }
            return true;
        });
        return informer;
    }

    private void deliver(Runnable event) {
        synchronized (delivery) {
            try {
                event.run();
            } catch (RuntimeException e) {
                LOG.error("DRA view event failed", e);
            }
        }
    }
}
