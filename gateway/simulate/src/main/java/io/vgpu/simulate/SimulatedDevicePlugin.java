package io.vgpu.simulate;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeLock;
import io.vgpu.state.codec.NodeLockCodec;
import io.vgpu.state.codec.PodPatchCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Plays the HAMi device plugin of every simulated node, through the simulator's API server only: when a pod
 * that carries {@code hami.io/bind-phase=allocating} is bound to a node ({@code spec.nodeName} set, which is
 * when kubelet would call {@code Allocate}), it waits {@code delay}, then does what the plugin does once the
 * containers are allocated: patch {@code bind-phase=success}, then release the node lock
 * ({@code hami.io/mutex.lock}) if it names this pod (resourceVersion-guarded, retried on a conflict).
 *
 * <p>Threading: informer events only schedule work; the writes run one at a time on the plugin's own thread,
 * never on an event loop.
 */
final class SimulatedDevicePlugin implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SimulatedDevicePlugin.class);
    private static final int UNLOCK_ATTEMPTS = 10;

    private final KubernetesClient client;
    private final Duration delay;
    private final ScheduledExecutorService worker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "simulated-device-plugin");
        t.setDaemon(true);
        return t;
    });
    private final Set<String> handled = ConcurrentHashMap.newKeySet();
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicLong allocated = new AtomicLong();
    private final AtomicLong unlocked = new AtomicLong();
    private SharedIndexInformer<Pod> informer;

    /**
     * @param client a client of the simulator's API server (not the gateway's)
     * @param delay  how long "Allocate" takes before the plugin reports success and releases the lock
     */
    SimulatedDevicePlugin(KubernetesClient client, Duration delay) {
        this.client = client;
        this.delay = delay;
    }

    /** Starts watching the pods that carry an allocation ({@code hami.io/vgpu-node} label). */
    void start() {
        informer = client.pods().inAnyNamespace().withLabel(HamiAnnotations.VGPU_NODE).inform(new Handler(), 0);
    }

    /** True when no allocation is waiting or running. */
    boolean idle() {
        return pending.get() == 0;
    }

    /** Pods whose allocation was reported successful. */
    long allocated() {
        return allocated.get();
    }

    /** Node locks released. */
    long unlocked() {
        return unlocked.get();
    }

    @Override
    public void close() {
        if (informer != null) {
            informer.stop();
        }
        worker.shutdownNow();
    }

    private void onPod(Pod pod) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        if (node == null || node.isEmpty() || annotations == null
                || !PodPatchCodec.PHASE_ALLOCATING.equals(annotations.get(HamiAnnotations.BIND_PHASE))
                || !handled.add(pod.getMetadata().getUid())) {
            return;
        }
        String namespace = pod.getMetadata().getNamespace();
        String name = pod.getMetadata().getName();
        String toAllocate = annotations.getOrDefault(HamiAnnotations.DEVICES_TO_ALLOCATE, "");
        pending.incrementAndGet();
        worker.schedule(() -> {
            try {
                allocate(node, namespace, name, toAllocate);
            } catch (RuntimeException e) {
                LOG.warn("device plugin on {}: allocating {}/{} failed: {}", node, namespace, name,
                        e.getCause() == null ? e.toString() : e + " (" + e.getCause() + ")");
            } finally {
                pending.decrementAndGet();
            }
        }, delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * What the plugin does once kubelet has called {@code Allocate} for every container (spec §6.3): every
     * container entry of {@code hami.io/vgpu-devices-to-allocate} erased and {@code bind-phase=success} (one patch
     * here, where the plugin makes one per container), then the owner-checked node-lock release.
     */
    private void allocate(String node, String namespace, String name, String toAllocate) {
        client.pods().inNamespace(namespace).withName(name).patch(PatchContext.of(PatchType.JSON_MERGE),
                PodPatchCodec.annotationsPatch(Map.of(HamiAnnotations.DEVICES_TO_ALLOCATE, erased(toAllocate),
                        HamiAnnotations.BIND_PHASE, "success")));
        allocated.incrementAndGet();
        for (int attempt = 1; attempt <= UNLOCK_ATTEMPTS; attempt++) {
            Node current = client.nodes().withName(node).get();
            Map<String, String> annotations = current == null ? null : current.getMetadata().getAnnotations();
            String value = annotations == null ? null : annotations.get(HamiAnnotations.NODE_LOCK);
            Decoded<NodeLock> lock = NodeLockCodec.parse(value);
            if (value == null || !lock.isOk() || !lock.value().ownedBy(namespace, name)) {
                return; // not ours (any more): leave it to its owner
            }
            try {
                client.nodes().withName(node).patch(PatchContext.of(PatchType.JSON_MERGE),
                        NodeLockCodec.removePatch(current.getMetadata().getResourceVersion()));
                unlocked.incrementAndGet();
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) {
                    throw e;
                }
            }
        }
        LOG.warn("device plugin on {}: lock of {}/{} not released after {} conflicts", node, namespace, name,
                UNLOCK_ATTEMPTS);
    }

    /** The pod-devices string with every container entry emptied: {@code "a:;b:;"} → {@code ";;"}. */
    static String erased(String podDevices) {
        int containers = podDevices.split(";", -1).length;
        return ";".repeat(Math.max(0, containers - 1));
    }

    private final class Handler implements ResourceEventHandler<Pod> {

        @Override
        public void onAdd(Pod pod) {
            onPod(pod);
        }

        @Override
        public void onUpdate(Pod before, Pod after) {
            onPod(after);
        }

        @Override
        public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
            handled.remove(pod.getMetadata().getUid());
        }
    }
}
