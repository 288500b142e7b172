package io.vgpu.deviceplugin.kube;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.vgpu.deviceplugin.core.port.NodeInfo;
import io.vgpu.deviceplugin.core.port.NodeWatch;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * {@link NodeWatch} over a fabric8 informer on this one Node (field selector {@code metadata.name}): the
 * mode controller reads its label, the slice publisher its UID and cordon annotation, with no API call
 * per read. Needs {@code list} and {@code watch} on nodes. While the API server cannot be reached the
 * informer retries (logged) and {@link #current()} answers what was last seen.
 */
public final class KubeNodeWatch implements NodeWatch, AutoCloseable {

    private final String node;
    private final SharedIndexInformer<Node> informer;
    private final List<Consumer<NodeInfo>> listeners = new CopyOnWriteArrayList<>();

    private KubeNodeWatch(KubernetesClient client, String node) {
        this.node = node;
        this.informer = KubePodDirectory.retrying("node " + node,
                client.nodes().withField("metadata.name", node).runnableInformer(0));
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Node n) {
                deliver(n);
            }

            @Override
            public void onUpdate(Node old, Node n) {
                deliver(n);
            }

            @Override
            public void onDelete(Node n, boolean finalStateUnknown) {
                // the node is going; the agent goes with it
            }
        });
    }

    /** Starts the informer and returns at once (no I/O on the calling thread). */
    public static KubeNodeWatch start(KubernetesClient client, String node) {
        KubeNodeWatch watch = new KubeNodeWatch(Objects.requireNonNull(client, "client"), node);
        watch.informer.start();
        return watch;
    }

    @Override
    public Optional<NodeInfo> current() {
        return informer.getStore().list().stream().filter(n -> node.equals(n.getMetadata().getName())).findFirst()
                .map(KubeNodeWatch::view);
    }

    @Override
    public AutoCloseable subscribe(Consumer<NodeInfo> listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    private void deliver(Node n) {
        if (node.equals(n.getMetadata().getName())) {
            NodeInfo view = view(n);
            listeners.forEach(l -> l.accept(view));
        }
    }

    static NodeInfo view(Node n) {
        var meta = n.getMetadata();
        return new NodeInfo(meta.getName(), meta.getUid(), meta.getResourceVersion(), PodViews.nonNullValues(meta.getLabels()),
                PodViews.nonNullValues(meta.getAnnotations()));
    }

    /** Stops the informer. Idempotent. */
    @Override
    public void close() {
        informer.stop();
    }
}
