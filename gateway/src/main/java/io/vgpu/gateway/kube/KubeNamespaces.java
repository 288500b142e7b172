package io.vgpu.gateway.kube;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.vgpu.gateway.core.port.NamespaceLabels;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * {@link NamespaceLabels} from an informer cache of the cluster's namespaces (list and watch; a lookup never calls
 * the API server). Until the first list arrives every namespace is unknown, which the webhook treats as unlabelled.
 */
public final class KubeNamespaces implements NamespaceLabels, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KubeNamespaces.class);

    private final SharedIndexInformer<Namespace> informer;

    /** @param client the fabric8 client (the informer is created, not started) */
    public KubeNamespaces(KubernetesClient client) {
        this.informer = client.namespaces().runnableInformer(0);
        // keep listing after a failed first list or watch (fabric8 stops the informer otherwise): the gateway's
        // readiness waits for this cache, so a stopped informer would leave the replica unready for good (seen in
        // the chaos run: a first list that timed out on a loaded machine)
        informer.exceptionHandler((started, failure) -> {
            LOG.warn("namespace informer: {} (retrying)", failure.toString());
            return true;
        });
    }

    /** Starts the informer; completes when the first list is in the cache. */
    public CompletionStage<Void> start() {
        return informer.start();
    }

    /** Whether the first list is in. */
    public boolean hasSynced() {
        return informer.hasSynced();
    }

    @Override
    public Optional<Map<String, String>> labels(String namespace) {
        Namespace ns = informer.getStore().getByKey(namespace);
        if (ns == null) {
            return Optional.empty();
        }
        Map<String, String> labels = ns.getMetadata() == null ? null : ns.getMetadata().getLabels();
        return Optional.of(labels == null ? Map.of() : Map.copyOf(labels));
    }

    @Override
    public void close() {
        informer.close();
    }
}
