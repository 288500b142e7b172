package io.vgpu.deviceplugin.kube;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.vgpu.deviceplugin.dra.slice.SliceStore;
import io.vgpu.state.dra.DraNames;
import io.vgpu.state.dra.ResourceSliceCodec;
import io.vgpu.state.dra.SliceObject;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * {@link SliceStore} over fabric8's {@code resource.k8s.io/v1} model. The JSON is the model's
 * {@link ResourceSliceCodec} both ways (fabric8's object only carries it), so what is written is exactly
 * what the builder made and what is read is what the API server kept. Selection by the field selectors
 * {@code spec.nodeName} and {@code spec.driver} (served by the API server for ResourceSlices), applied
 * again here.
 */
public final class FabricSliceStore implements SliceStore {

    private final KubernetesClient client;
    private final KubeCalls calls;

    /**
     * @param executor where the blocking fabric8 calls run
     * @param timeout  the limit of every call
     */
    public FabricSliceStore(KubernetesClient client, Executor executor, Duration timeout) {
        this.client = Objects.requireNonNull(client, "client");
        this.calls = new KubeCalls(executor, timeout);
    }

    @Override
    public CompletionStage<List<Stored>> list(String node) {
        return calls.call(() -> client.resources(ResourceSlice.class).withFields(selector(node)).list().getItems().stream()
                .filter(s -> ours(s, node))
                .map(s -> new Stored(s.getMetadata().getName(), Objects.toString(s.getMetadata().getResourceVersion(), ""),
                        ResourceSliceCodec.decode(client.getKubernetesSerialization().asJson(s))))
                .toList());
    }

    @Override
    public CompletionStage<SliceObject> create(SliceObject slice) {
        return calls.call(() -> read(mapped(() -> client.resource(fabric8(slice)).create())));
    }

    @Override
    public CompletionStage<SliceObject> update(SliceObject slice) {
        return calls.call(() -> read(mapped(() -> client.resource(fabric8(slice)).update())));
    }

    @Override
    public CompletionStage<Void> delete(String name) {
        return calls.call(() -> {
            client.resources(ResourceSlice.class).withName(name).delete();
            return null;
        });
    }

    @Override
    public AutoCloseable watch(String node, Consumer<Event> events) {
        SharedIndexInformer<ResourceSlice> informer = KubePodDirectory.retrying("ResourceSlices of " + node,
                client.resources(ResourceSlice.class).withFields(selector(node)).runnableInformer(0));
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(ResourceSlice s) {
                changed(s, false);
            }

            @Override
            public void onUpdate(ResourceSlice old, ResourceSlice s) {
                changed(s, false);
            }

            @Override
            public void onDelete(ResourceSlice s, boolean finalStateUnknown) {
                changed(s, true);
            }

            private void changed(ResourceSlice s, boolean deleted) {
                if (ours(s, node)) {
                    events.accept(new Event(deleted, s.getMetadata().getName(),
                            deleted ? "" : Objects.toString(s.getMetadata().getResourceVersion(), "")));
                }
            }
        });
        informer.start();
        return informer::stop;
    }

    private static Map<String, String> selector(String node) {
        return Map.of("spec.nodeName", node, "spec.driver", DraNames.DRIVER);
    }

    private static boolean ours(ResourceSlice s, String node) {
        return s.getSpec() != null && DraNames.DRIVER.equals(s.getSpec().getDriver()) && node.equals(s.getSpec().getNodeName());
    }

    private ResourceSlice fabric8(SliceObject slice) {
        return client.getKubernetesSerialization().unmarshal(ResourceSliceCodec.encode(slice), ResourceSlice.class);
    }

    private SliceObject read(ResourceSlice stored) {
        var decoded = ResourceSliceCodec.decode(client.getKubernetesSerialization().asJson(stored));
        if (!decoded.isOk()) {
            throw new IllegalStateException("the API server answered a ResourceSlice this agent cannot read: " + decoded.error());
        }
        return decoded.value();
    }

    private static ResourceSlice mapped(Supplier<ResourceSlice> write) {
        try {
            return write.get();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409) {
                throw new Conflict(e.getMessage());
            }
            if (e.getCode() == 404) {
                throw new Gone(e.getMessage());
            }
            throw e;
        }
    }
}
