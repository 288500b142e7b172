package io.vgpu.simulate.dra;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaimConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes one claim's {@code status.allocation} from the search's picks (spec §3.5, §1.6): results in
 * allocation order (with the request's tolerations, the share ID and the consumed capacity of shared
 * devices); configs — each used class's configs once ({@code FromClass}, listing the requests that used
 * it), then each claim config that applies to an allocated (sub)request ({@code FromClaim}), a config that
 * ends up naming every request being written with an empty list; and the node selector: the node itself
 * when any device came from a {@code nodeName} slice (or binds to its node), else the union of the
 * slices' one-term selectors, else none.
 */
final class ResultBuilder {

    private ResultBuilder() {
    }

    static AllocationResult build(ClaimPlan plan, String nodeName) {
        List<DeviceRequestAllocationResult> results = new ArrayList<>();
        for (DeviceResult r : plan.results) {
            results.add(result(r));
        }
        return new AllocationResultBuilder()
                .withNewDevices().withResults(results).withConfig(configs(plan)).endDevices()
                .withNodeSelector(nodeSelector(plan, nodeName))
                .build();
    }

    private static DeviceRequestAllocationResult result(DeviceResult r) {
        DeviceRequestAllocationResultBuilder b = new DeviceRequestAllocationResultBuilder()
                .withRequest(r.request().fullName())
                .withDriver(r.candidate().id().driver())
                .withPool(r.candidate().id().pool())
                .withDevice(r.candidate().id().device())
                .withShareID(r.shareId());
        if (r.request().adminAccess()) {
            b.withAdminAccess(true);
        }
        if (!r.request().tolerations().isEmpty()) {
            b.withTolerations(r.request().tolerations());
        }
        if (r.consumed() != null) {
            Map<String, Quantity> consumed = new LinkedHashMap<>();
            r.consumed().forEach((name, q) -> consumed.put(name, new Quantity(q.toString())));
            b.withConsumedCapacity(consumed);
        }
        List<String> conditions = Nulls.list(r.candidate().device().getBindingConditions());
        if (!conditions.isEmpty()) {
            b.withBindingConditions(conditions)
                    .withBindingFailureConditions(Nulls.list(r.candidate().device().getBindingFailureConditions()));
        }
        return b.build();
    }

    private static List<DeviceAllocationConfiguration> configs(ClaimPlan plan) {
        List<DeviceAllocationConfiguration> out = new ArrayList<>();
        Map<String, int[]> classRanges = new LinkedHashMap<>();
        List<String> chosen = new ArrayList<>();
        for (ClaimPlan.Slot slot : plan.slots) {
            RequestSpec spec = slot.chosen();
            chosen.add(spec.fullName());
            String className = spec.deviceClass().getMetadata().getName();
            int[] range = classRanges.get(className);
            if (range != null) {
                for (int i = range[0]; i < range[1]; i++) {
                    out.get(i).getRequests().add(spec.fullName());
                }
                continue;
            }
            int first = out.size();
            for (DeviceClassConfiguration c : Nulls.list(spec.deviceClass().getSpec().getConfig())) {
                out.add(new DeviceAllocationConfiguration(c.getOpaque(), new ArrayList<>(List.of(spec.fullName())), "FromClass"));
            }
            classRanges.put(className, new int[] {first, out.size()});
        }
        for (DeviceClaimConfiguration c : Nulls.list(plan.claim.getSpec().getDevices().getConfig())) {
            List<String> names = Nulls.list(c.getRequests());
            boolean applies = names.isEmpty();
            for (ClaimPlan.Slot slot : plan.slots) {
                applies |= names.contains(slot.chosen().baseName()) || names.contains(slot.chosen().fullName());
            }
            if (applies) {
                out.add(new DeviceAllocationConfiguration(c.getOpaque(), new ArrayList<>(names), "FromClaim"));
            }
        }
        for (DeviceAllocationConfiguration c : out) {
            List<String> names = c.getRequests();
            if (!names.isEmpty() && plan.slots.stream().allMatch(s -> names.contains(s.chosen().baseName())
                    || names.contains(s.chosen().fullName()))) {
                c.setRequests(new ArrayList<>());
            }
        }
        return out;
    }

    private static NodeSelector nodeSelector(ClaimPlan plan, String nodeName) {
        List<NodeSelectorRequirement> fields = new ArrayList<>();
        List<NodeSelectorRequirement> labels = new ArrayList<>();
        for (DeviceResult r : plan.results) {
            ResourceSlice slice = r.candidate().slice();
            boolean perDevice = Boolean.TRUE.equals(slice.getSpec().getPerDeviceNodeSelection());
            String name = perDevice ? r.candidate().device().getNodeName() : slice.getSpec().getNodeName();
            NodeSelector selector = perDevice ? r.candidate().device().getNodeSelector() : slice.getSpec().getNodeSelector();
            if ((name != null && !name.isEmpty()) || Boolean.TRUE.equals(r.candidate().device().getBindsToNode())) {
                return new NodeSelectorBuilder().addNewNodeSelectorTerm().addNewMatchField()
                        .withKey("metadata.name").withOperator("In").withValues(nodeName).endMatchField()
                        .endNodeSelectorTerm().build();
            }
            if (selector != null && Nulls.list(selector.getNodeSelectorTerms()).size() == 1) {
                NodeSelectorTerm term = selector.getNodeSelectorTerms().get(0);
                addNew(fields, Nulls.list(term.getMatchFields()));
                addNew(labels, Nulls.list(term.getMatchExpressions()));
            } else if (selector != null && Nulls.list(selector.getNodeSelectorTerms()).size() > 1) {
                throw new AllocationError("unsupported ResourceSlice.NodeSelector with "
                        + selector.getNodeSelectorTerms().size() + " terms");
            }
        }
        if (fields.isEmpty() && labels.isEmpty()) {
            return null;
        }
        return new NodeSelectorBuilder().addNewNodeSelectorTerm().withMatchFields(fields).withMatchExpressions(labels)
                .endNodeSelectorTerm().build();
    }

    private static void addNew(List<NodeSelectorRequirement> into, List<NodeSelectorRequirement> from) {
        for (NodeSelectorRequirement r : from) {
            if (!into.contains(r)) {
                into.add(r);
            }
        }
    }
}
