package io.vgpu.simulate.dra;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerExtendedResourceRequest;
import io.fabric8.kubernetes.api.model.ContainerExtendedResourceRequestBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.vgpu.simulate.dra.cel.QuantityValue;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The claim kube-scheduler builds for extended resources backed by DRA (spec §1.7, KEP-5004): for each
 * (container, extended resource) where some DeviceClass claims the resource name (its
 * {@code extendedResourceName}, or the implicit {@code deviceclass.resource.kubernetes.io/<class>}) and the
 * node does not advertise it, one request {@code container-<i>-request-<j>} ({@code i} over init containers
 * then containers, {@code j} the name's index among the container's sorted resource names) for
 * {@code count} devices of that class, with no capacity requests (so shared devices are charged the
 * capacity defaults). When two classes claim a name the newest wins (ties: lexically first).
 *
 * <p>Not modelled: init containers reusing a later container's request (each container gets its own).
 * Requests default to limits for names the container only limits, as the API server defaults them.
 */
final class ExtendedResources {

    static final String CLASS_PREFIX = "deviceclass.resource.kubernetes.io/";
    static final String ANNOTATION = "resource.kubernetes.io/extended-resource-claim";

    private ExtendedResources() {
    }

    /** The special claim and its container mappings, or empty when the pod needs none on this node. */
    static Optional<ExtendedClaim> claimFor(Pod pod, Node node, Collection<DeviceClass> classes) {
        Map<String, DeviceClass> byResource = classesByResource(classes);
        List<Container> containers = new ArrayList<>(Nulls.list(pod.getSpec().getInitContainers()));
        containers.addAll(Nulls.list(pod.getSpec().getContainers()));
        List<DeviceRequest> requests = new ArrayList<>();
        List<ContainerExtendedResourceRequest> mappings = new ArrayList<>();
        for (int i = 0; i < containers.size(); i++) {
            Container container = containers.get(i);
            List<String> names = new ArrayList<>(requestsOf(container).keySet());
            for (int j = 0; j < names.size(); j++) {
                String resource = names.get(j);
                DeviceClass deviceClass = byResource.get(resource);
                if (deviceClass == null || advertises(node, resource)) {
                    continue;
                }
                QuantityValue quantity = QuantityValue.parse(requestsOf(container).get(resource).toString());
                if (!quantity.isInteger() || quantity.sign() <= 0) {
                    continue;
                }
                long count = quantity.asLong();
                String requestName = "container-" + i + "-request-" + j;
                requests.add(new DeviceRequestBuilder().withName(requestName).withNewExactly()
                        .withDeviceClassName(deviceClass.getMetadata().getName()).withAllocationMode("ExactCount")
                        .withCount(count).endExactly().build());
                mappings.add(new ContainerExtendedResourceRequestBuilder().withContainerName(container.getName())
                        .withResourceName(resource).withRequestName(requestName).build());
            }
        }
        if (requests.isEmpty()) {
            return Optional.empty();
        }
        ResourceClaim claim = new ResourceClaimBuilder()
                .withNewMetadata().withNamespace(pod.getMetadata().getNamespace())
                .withGenerateName(pod.getMetadata().getName() + "-extended-resources-")
                .addToAnnotations(ANNOTATION, "true")
                .addNewOwnerReference().withApiVersion("v1").withKind("Pod").withName(pod.getMetadata().getName())
                .withUid(pod.getMetadata().getUid()).withController(true).withBlockOwnerDeletion(true).endOwnerReference()
                .endMetadata()
                .withNewSpec().withNewDevices().withRequests(requests).endDevices().endSpec()
                .build();
        return Optional.of(new ExtendedClaim(claim, mappings));
    }

    private static Map<String, Quantity> requestsOf(Container container) {
        Map<String, Quantity> effective = new TreeMap<>();
        if (container.getResources() != null) {
            effective.putAll(Nulls.map(container.getResources().getLimits()));
            effective.putAll(Nulls.map(container.getResources().getRequests()));
        }
        return effective;
    }

    private static boolean advertises(Node node, String resource) {
        Quantity q = node.getStatus() == null ? null : Nulls.map(node.getStatus().getAllocatable()).get(resource);
        return q != null && QuantityValue.parse(q.toString()).sign() > 0;
    }

    private static Map<String, DeviceClass> classesByResource(Collection<DeviceClass> classes) {
        Comparator<DeviceClass> preference = Comparator
                .comparing((DeviceClass c) -> created(c), Comparator.reverseOrder())
                .thenComparing(c -> c.getMetadata().getName());
        Map<String, DeviceClass> byResource = new HashMap<>();
        for (DeviceClass c : classes.stream().sorted(preference).toList()) {
            byResource.putIfAbsent(CLASS_PREFIX + c.getMetadata().getName(), c);
            String name = c.getSpec() == null ? null : c.getSpec().getExtendedResourceName();
            if (name != null && !name.isEmpty()) {
                byResource.putIfAbsent(name, c);
            }
        }
        return byResource;
    }

    private static String created(DeviceClass c) {
        String t = c.getMetadata().getCreationTimestamp();
        return t == null ? "" : t;
    }

    /** The claim to create and the pod's {@code status.extendedResourceClaimStatus.requestMappings}. */
    record ExtendedClaim(ResourceClaim claim, List<ContainerExtendedResourceRequest> mappings) {
        ExtendedClaim {
            mappings = List.copyOf(mappings);
        }
    }
}
