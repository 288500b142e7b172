package io.vgpu.simulate;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.net.HttpURLConnection;
import java.util.List;
import java.util.Map;

/**
 * Where {@link DraRun} writes the objects kube-controller-manager, kube-scheduler and the node agents would write:
 * nowhere ({@link #NONE}: the run's own view is all there is) or a Kubernetes API server ({@link #to}), so that
 * the gateway's informers and a test see them. Calls are blocking and come from the run's one driver thread.
 */
interface DraWrites {

    /** The node agents' slices and the chart's DeviceClass. */
    void published(List<ResourceSlice> slices, DeviceClass deviceClass);

    /** The webhook's template (AlreadyExists is success). */
    void template(ResourceClaimTemplate template);

    /** The admitted pod with its claim's status, and the claim the controller made for it. */
    void created(Pod pod, ResourceClaim claim);

    /** PreBind's claim (allocation, reservedFor, finalizer), then the binding. */
    void bound(ResourceClaim claim, Pod pod, String node);

    /** The pod deleted; its claim updated ({@code claim} unallocated) or deleted ({@code deleted}). */
    void deleted(Pod pod, ResourceClaim claim, boolean deleted);

    /** Writes nothing. */
    DraWrites NONE = new DraWrites() {
        @Override
        public void published(List<ResourceSlice> slices, DeviceClass deviceClass) {
        }

        @Override
        public void template(ResourceClaimTemplate template) {
        }

        @Override
        public void created(Pod pod, ResourceClaim claim) {
        }

        @Override
        public void bound(ResourceClaim claim, Pod pod, String node) {
        }

        @Override
        public void deleted(Pod pod, ResourceClaim claim, boolean deleted) {
        }
    };

    /** Writes through {@code client}; a refused write is an {@link IllegalStateException} naming the object. */
    static DraWrites to(KubernetesClient client) {
        return new DraWrites() {
            @Override
            public void published(List<ResourceSlice> slices, DeviceClass deviceClass) {
                client.resource(deviceClass).create();
                slices.forEach(s -> client.resource(s).create());
            }

            @Override
            public void template(ResourceClaimTemplate template) {
                try {
                    client.resource(template).create();
                } catch (KubernetesClientException e) {
                    if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                        throw new IllegalStateException("cannot create template "
                                + template.getMetadata().getName() + ": " + e.getMessage(), e);
                    }
                }
            }

            @Override
            public void created(Pod pod, ResourceClaim claim) {
                client.resource(pod).create();
                client.resource(claim).create();
            }

            @Override
            public void bound(ResourceClaim claim, Pod pod, String node) {
                client.resources(ResourceClaim.class).inNamespace(claim.getMetadata().getNamespace())
                        .withName(claim.getMetadata().getName()).edit(old -> claim);
                String ns = pod.getMetadata().getNamespace();
                String name = pod.getMetadata().getName();
                String answer = client.raw(client.getMasterUrl() + "api/v1/namespaces/" + ns + "/pods/" + name + "/binding", "POST",
                        Map.of("apiVersion", "v1", "kind", "Binding",
                                "metadata", Map.of("name", name, "namespace", ns),
                                "target", Map.of("apiVersion", "v1", "kind", "Node", "name", node)));
                if (answer == null) {
                    throw new IllegalStateException("cannot bind pod " + ns + "/" + name + ": not found");
                }
            }

            @Override
            public void deleted(Pod pod, ResourceClaim claim, boolean deleted) {
                client.resource(pod).delete();
                if (deleted) {
                    client.resources(ResourceClaim.class).inNamespace(claim.getMetadata().getNamespace())
                            .withName(claim.getMetadata().getName()).delete();
                } else {
                    client.resources(ResourceClaim.class).inNamespace(claim.getMetadata().getNamespace())
                            .withName(claim.getMetadata().getName()).edit(old -> claim);
                }
            }
        };
    }
}
