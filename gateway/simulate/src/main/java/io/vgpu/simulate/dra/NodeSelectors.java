package io.vgpu.simulate.dra;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import java.util.List;
import java.util.Map;

/**
 * Node selector matching as the core API defines it: the terms are ORed; in a term, every label
 * expression and every field expression ({@code metadata.name} only) must hold; a term without
 * requirements matches nothing.
 */
final class NodeSelectors {

    private NodeSelectors() {
    }

    static boolean matches(NodeSelector selector, Node node) {
        if (selector == null) {
            return false;
        }
        for (NodeSelectorTerm term : Nulls.list(selector.getNodeSelectorTerms())) {
            if (matches(term, node)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a slice or device placed by {@code nodeName}, {@code allNodes} or a selector is usable on the node. */
    static boolean placedOn(String nodeName, Boolean allNodes, NodeSelector selector, Node node) {
        if (nodeName != null && !nodeName.isEmpty()) {
            return nodeName.equals(node.getMetadata().getName());
        }
        if (Boolean.TRUE.equals(allNodes)) {
            return true;
        }
        return selector != null && matches(selector, node);
    }

    private static boolean matches(NodeSelectorTerm term, Node node) {
        List<NodeSelectorRequirement> labels = Nulls.list(term.getMatchExpressions());
        List<NodeSelectorRequirement> fields = Nulls.list(term.getMatchFields());
        if (labels.isEmpty() && fields.isEmpty()) {
            return false;
        }
        Map<String, String> nodeLabels = Nulls.map(node.getMetadata().getLabels());
        for (NodeSelectorRequirement r : labels) {
            if (!holds(r, nodeLabels.get(r.getKey()), nodeLabels.containsKey(r.getKey()))) {
                return false;
            }
        }
        for (NodeSelectorRequirement r : fields) {
            boolean known = "metadata.name".equals(r.getKey());
            if (!known || !holds(r, node.getMetadata().getName(), true)) {
                return false;
            }
        }
        return true;
    }

    private static boolean holds(NodeSelectorRequirement r, String value, boolean present) {
        List<String> values = Nulls.list(r.getValues());
        switch (r.getOperator()) {
            case "In":
                return present && values.contains(value);
            case "NotIn":
                return !present || !values.contains(value);
            case "Exists":
                return present;
            case "DoesNotExist":
                return !present;
            case "Gt":
            case "Lt":
                return present && compares(r.getOperator(), value, values);
            default:
                return false;
        }
    }

    private static boolean compares(String operator, String value, List<String> values) {
        if (values.size() != 1) {
            return false;
        }
        try {
            long actual = Long.parseLong(value);
            long bound = Long.parseLong(values.get(0));
            return "Gt".equals(operator) ? actual > bound : actual < bound;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
