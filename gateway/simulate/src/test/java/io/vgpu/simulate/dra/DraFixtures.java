package io.vgpu.simulate.dra;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicyBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.vgpu.state.dra.DraNames;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Test builders shaped like our driver's objects (issue 12 item 2, DESIGN.md §8): one slice per node,
 * pool = node name, devices {@code gpu-<minor>} with {@code allowMultipleAllocations} and the capacities
 * memory (card bytes rounded down to MiB, default whole, validRange{1Mi, step 1Mi}), cores (100, default 0,
 * validRange{0, 100, 1}) and slots (1000, default ⌊1000/N⌋, validValues [⌊1000/N⌋, 1000]).
 */
final class DraFixtures {

    static final String DRIVER = DraNames.DRIVER;
    static final String CLASS = "vgpu";
    static final long GIB = 1L << 30;
    static final long MIB = 1L << 20;

    private DraFixtures() {
    }

    static DraAllocator allocator() {
        int[] next = {0};
        return new DraAllocator(() -> "share-" + next[0]++, Clock.fixed(Instant.parse("2026-12-01T00:00:00Z"), ZoneOffset.UTC));
    }

    static DeviceClass gpuClass() {
        return new DeviceClassBuilder().withNewMetadata().withName(CLASS).endMetadata().withNewSpec()
                .addNewSelector().withNewCel().withExpression("device.driver == '" + DRIVER + "'").endCel().endSelector()
                .endSpec().build();
    }

    static Node node(String name) {
        return new NodeBuilder().withNewMetadata().withName(name).addToLabels("kubernetes.io/hostname", name)
                .endMetadata().withNewStatus().endStatus().build();
    }

    static Gpu gpu(int minor) {
        return new Gpu(minor);
    }

    /** A slice of {@code node} with {@code gpus}, split count {@code split}. */
    static ResourceSlice slice(String node, int split, Gpu... gpus) {
        return slice(node, split, 1, gpus);
    }

    static ResourceSlice slice(String node, int split, long generation, Gpu... gpus) {
        List<Device> devices = new ArrayList<>();
        for (Gpu g : gpus) {
            devices.add(g.device(split));
        }
        return new ResourceSliceBuilder().withNewMetadata().withName(node + "-" + DRIVER + "-00000").endMetadata()
                .withNewSpec().withDriver(DRIVER).withNodeName(node)
                .withNewPool().withName(node).withGeneration(generation).withResourceSliceCount(1L).endPool()
                .withDevices(devices).endSpec().build();
    }

    static ClaimFixture claim(String name) {
        return new ClaimFixture(name);
    }

    static Pod pod(String name, String... claimNames) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName(name).withNamespace("ns").withUid("uid-" + name)
                .endMetadata().withNewSpec().addNewContainer().withName("main").endContainer().endSpec();
        for (String c : claimNames) {
            b.editSpec().addNewResourceClaim().withName(c).withResourceClaimName(c).endResourceClaim().endSpec();
        }
        return b.build();
    }

    static AllocationOutcome.Allocated allocated(AllocationOutcome outcome) {
        if (outcome instanceof AllocationOutcome.Allocated a) {
            return a;
        }
        throw new AssertionError("expected an allocation, got " + outcome);
    }

    /** Allocates {@code claim} for a new pod on {@code node} and writes it back, as the simulator would. */
    static AllocationOutcome place(DraAllocator allocator, ResourceClaim claim, Node node) {
        allocator.putClaim(claim);
        Pod pod = pod("p-" + claim.getMetadata().getName(), claim.getMetadata().getName());
        AllocationOutcome outcome = allocator.allocate(pod, node);
        if (outcome instanceof AllocationOutcome.Allocated a) {
            a.claims().forEach(c -> allocator.putClaim(c.allocatedFor(pod)));
        }
        return outcome;
    }

    /** One GPU of our driver. */
    static final class Gpu {
        private final int minor;
        private long memoryBytes = 80 * GIB;
        private String product = "NVIDIA A100-SXM4-80GB";
        private final List<DeviceTaint> taints = new ArrayList<>();
        private Integer numa;

        Gpu(int minor) {
            this.minor = minor;
        }

        Gpu memGiB(long gib) {
            memoryBytes = gib * GIB;
            return this;
        }

        Gpu product(String name) {
            product = name;
            return this;
        }

        Gpu numa(int node) {
            numa = node;
            return this;
        }

        Gpu taint(String key, String effect) {
            taints.add(new DeviceTaint(effect, key, null, "x"));
            return this;
        }

        Device device(int split) {
            long memory = memoryBytes / MIB * MIB;
            long share = 1000 / split;
            Map<String, DeviceAttribute> attrs = new LinkedHashMap<>();
            attrs.put("uuid", new DeviceAttributeBuilder().withString("GPU-" + minor).build());
            attrs.put("productName", new DeviceAttributeBuilder().withString(product).build());
            attrs.put("index", new DeviceAttributeBuilder().withInt((long) minor).build());
            attrs.put("cudaComputeCapability", new DeviceAttributeBuilder().withVersion("8.0.0").build());
            attrs.put("driverVersion", new DeviceAttributeBuilder().withVersion("550.54.15").build());
            attrs.put("resource.kubernetes.io/pciBusID", new DeviceAttributeBuilder().withString("0000:0" + minor + ":00.0").build());
            if (numa != null) {
                attrs.put("numa", new DeviceAttributeBuilder().withInt((long) numa).build());
            }
            Map<String, DeviceCapacity> caps = new LinkedHashMap<>();
            caps.put("memory", capacity(Long.toString(memory), new CapacityRequestPolicyBuilder().withDefault(q(Long.toString(memory)))
                    .withNewValidRange().withMin(q("1Mi")).withStep(q("1Mi")).endValidRange()));
            caps.put("cores", capacity("100", new CapacityRequestPolicyBuilder().withDefault(q("0"))
                    .withNewValidRange().withMin(q("0")).withMax(q("100")).withStep(q("1")).endValidRange()));
            caps.put("slots", capacity("1000", new CapacityRequestPolicyBuilder().withDefault(q(Long.toString(share)))
                    .withValidValues(q(Long.toString(share)), q("1000"))));
            return new DeviceBuilder().withName(DraNames.deviceName(minor)).withAllowMultipleAllocations(true)
                    .withAttributes(attrs).withCapacity(caps).withTaints(taints).build();
        }

        private static DeviceCapacity capacity(String value, CapacityRequestPolicyBuilder policy) {
            return new DeviceCapacityBuilder().withValue(q(value)).withRequestPolicy(policy.build()).build();
        }
    }

    static Quantity q(String s) {
        return new Quantity(s);
    }

    /** A claim in namespace {@code ns}. */
    static final class ClaimFixture {
        private final String name;
        private final List<DeviceRequest> requests = new ArrayList<>();
        private final List<DeviceConstraint> constraints = new ArrayList<>();

        ClaimFixture(String name) {
            this.name = name;
        }

        /** A request of one device of class {@value CLASS} with these capacity requests ("memory", "4Gi", ...). */
        ClaimFixture request(String request, String... capacity) {
            return request(request, 1, List.of(), capacity);
        }

        ClaimFixture request(String request, long count, List<String> selectors, String... capacity) {
            DeviceRequestBuilder b = new DeviceRequestBuilder().withName(request);
            var exactly = b.withNewExactly().withDeviceClassName(CLASS).withCount(count);
            for (String s : selectors) {
                exactly.addNewSelector().withNewCel().withExpression(s).endCel().endSelector();
            }
            Map<String, Quantity> caps = new LinkedHashMap<>();
            for (int i = 0; i < capacity.length; i += 2) {
                caps.put(capacity[i], q(capacity[i + 1]));
            }
            if (!caps.isEmpty()) {
                exactly.withNewCapacity().withRequests(caps).endCapacity();
            }
            requests.add(exactly.endExactly().build());
            return this;
        }

        ClaimFixture request(DeviceRequest request) {
            requests.add(request);
            return this;
        }

        ClaimFixture distinct(String attribute) {
            constraints.add(new DeviceConstraint(attribute, null, List.of()));
            return this;
        }

        ClaimFixture match(String attribute) {
            constraints.add(new DeviceConstraint(null, attribute, List.of()));
            return this;
        }

        ResourceClaim build() {
            return new ResourceClaimBuilder().withNewMetadata().withName(name).withNamespace("ns").withUid("cuid-" + name)
                    .endMetadata().withNewSpec().withNewDevices().withRequests(requests).withConstraints(constraints)
                    .endDevices().endSpec().build();
        }
    }
}
