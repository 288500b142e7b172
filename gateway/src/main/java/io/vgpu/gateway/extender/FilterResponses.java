package io.vgpu.gateway.extender;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vgpu.gateway.core.filter.FilterDecision;
import io.vgpu.gateway.core.reason.NodeRejection;
import io.vgpu.gateway.scheduling.FilterOutcome;
import io.vgpu.gateway.scheduling.FilterService;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Maps a {@link FilterOutcome} (cache mode) or a {@link FilterDecision} (simulation mode) to HAMi's exact
 * {@code ExtenderFilterResult} shapes (spec §2.3, §9.7).
 * The one place where filter outcomes become wire JSON, and where typed node rejections become HAMi's
 * {@code FailedNodes} texts.
 */
public final class FilterResponses {

    private FilterResponses() {
    }

    /**
     * Cache mode ({@code NodeNames} in the request): what {@link FilterService#filter} decided, as HAMi answers it.
     *
     * @param outcome        the filter's outcome
     * @param requestedNames the request's {@code NodeNames}, echoed verbatim for a pod without GPU requests
     */
    public static ExtenderFilterResult cacheMode(FilterOutcome outcome, List<String> requestedNames) {
        if (outcome instanceof FilterOutcome.PassThrough) {
            return new ExtenderFilterResult(null, requestedNames, null, null, "");
        }
        if (outcome instanceof FilterOutcome.Failed f) {
            return ExtenderFilterResult.error(f.message());
        }
        if (outcome instanceof FilterOutcome.NoFit n) {
            return new ExtenderFilterResult(null, null, failedNodes(n.rejected()), null, "");
        }
        return new ExtenderFilterResult(null, List.of(((FilterOutcome.Placed) outcome).node()), null, null, "");
    }

    /**
     * Simulation mode ({@code Nodes} in the request): the best node's object, as sent, in a NodeList.
     *
     * @param decision    the decision over the request's nodes
     * @param nodeObjects the request's node objects by name
     */
    public static ExtenderFilterResult simulationMode(FilterDecision decision, Map<String, JsonNode> nodeObjects) {
        if (decision instanceof FilterDecision.PassThrough) {
            return new ExtenderFilterResult(nodeList(List.copyOf(nodeObjects.values())), null, null, null, "");
        }
        if (decision instanceof FilterDecision.Failed f) {
            return ExtenderFilterResult.error(f.message());
        }
        if (decision instanceof FilterDecision.NoFit n) {
            return new ExtenderFilterResult(null, null, failedNodes(n.rejected()), null, "");
        }
        FilterDecision.Fits fits = (FilterDecision.Fits) decision;
        JsonNode best = nodeObjects.get(fits.best().node());
        return new ExtenderFilterResult(nodeList(List.of(best.deepCopy())), null, failedNodes(fits.rejected()), null,
                "");
    }

    /**
     * {@code FailedNodes}: each node's rejection as HAMi's text. The one place the texts are made (each costs a few
     * strings, and a no-fit over a large cluster lists every node).
     */
    static Map<String, String> failedNodes(Map<String, NodeRejection> rejected) {
        Map<String, String> out = new LinkedHashMap<>(rejected.size() * 2);
        rejected.forEach((node, rejection) -> out.put(node, rejection.hamiText()));
        return out;
    }

    private static JsonNode nodeList(List<JsonNode> items) {
        ObjectNode list = JsonNodeFactory.instance.objectNode();
        list.putArray("items").addAll(items);
        return list;
    }
}
