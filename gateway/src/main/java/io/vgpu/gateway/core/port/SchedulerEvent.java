package io.vgpu.gateway.core.port;

import io.vgpu.gateway.core.reason.DeviceRejection;
import io.vgpu.gateway.core.reason.NodeRejection;
import io.vgpu.state.model.FitReason;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.ListIterator;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One Kubernetes Event the scheduler records on a pod (spec §14), with HAMi's exact reasons and messages.
 * The factories are pure; an {@link EventSink} writes the result.
 *
 * <pre>
 *  FilteringSucceed Normal   find fit node(&lt;node&gt;), &lt;N-M&gt; nodes not fit, &lt;M&gt; nodes fit(&lt;node&gt;:&lt;score %.2f&gt;,...)
 *  FilteringFailed  Warning  &lt;k&gt; nodes &lt;Reason&gt;(&lt;sorted nodes&gt;)      one per reason word, only when nothing fits
 *                            no available node, &lt;N&gt; nodes do not meet
 *                            &lt;error text&gt;
 *  BindingSucceed   Normal   Successfully binding node [&lt;node&gt;] to &lt;ns&gt;/&lt;name&gt;
 *  BindingFailed    Warning  &lt;error text&gt;
 * </pre>
 *
 * @param reason  the Event reason, e.g. {@code FilteringFailed}
 * @param type    Normal or Warning
 * @param message the Event message
 */
public record SchedulerEvent(String reason, Type type, String message) {

    /** Reason of a successful filter. */
    public static final String FILTERING_SUCCEED = "FilteringSucceed";
    /** Reason of a failed filter. */
    public static final String FILTERING_FAILED = "FilteringFailed";
    /** Reason of a successful bind. */
    public static final String BINDING_SUCCEED = "BindingSucceed";
    /** Reason of a failed bind. */
    public static final String BINDING_FAILED = "BindingFailed";

    /** Kubernetes Event types. */
    public enum Type {
        /** {@code Normal}. */
        Normal,
        /** {@code Warning}. */
        Warning
    }

    /** Requires every field. */
    public SchedulerEvent {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(type, "type");
        message = message == null ? "" : message;
    }

    /**
     * {@code find fit node(<chosen>), <N-M> nodes not fit, <M> nodes fit(<node>:<score>,...)}.
     *
     * @param chosen         the node the pod was reserved on
     * @param requestedNodes N, the number of {@code NodeNames} in the request
     * @param rankedBestFirst every fitting node, best first (as {@code FilterDecision.Fits.ranked}); HAMi
     *                        lists them in its sort order, best last, so the list is printed reversed
     */
    public static SchedulerEvent filteringSucceeded(String chosen, int requestedNodes, List<ScoredNode> rankedBestFirst) {
        // one call per filter listing every fitting node (100 KB of text at 5,000 nodes): written into one builder
        // sized up front, in HAMi's order (the list backwards) without copying the list
        int fit = rankedBestFirst.size();
        StringBuilder message = new StringBuilder(64 + chosen.length() + fit * 24).append("find fit node(")
                .append(chosen).append("), ").append(requestedNodes - fit).append(" nodes not fit, ").append(fit)
                .append(" nodes fit(");
        // equal scores sit side by side in a sorted list: one score text serves the whole run of them
        String scoreText = null;
        int scoreBits = 0;
        for (ListIterator<ScoredNode> it = rankedBestFirst.listIterator(fit); it.hasPrevious(); ) {
            ScoredNode n = it.previous();
            int bits = Float.floatToRawIntBits(n.score());
            if (scoreText == null || bits != scoreBits) {
                scoreText = twoDecimals(n.score());
                scoreBits = bits;
            }
            if (it.nextIndex() < fit - 1) {
                message.append(',');
            }
            message.append(n.node()).append(':').append(scoreText);
        }
        return new SchedulerEvent(FILTERING_SUCCEED, Type.Normal, message.append(')').toString());
    }

    /**
     * The events of a filter where nothing fits: one {@code <k> nodes <Reason>(<nodes>)} per device reason
     * ({@link FitReason}) counted on any node (ordered by reason word; HAMi's order is Go map order), then
     * {@code no available node, <N> nodes do not meet}. A node-level rejection (e.g. {@code node unregistered})
     * names no reason word, as HAMi's {@code ParseReason} finds none in its text.
     *
     * @param rejected       node → why it was rejected
     * @param requestedNodes N, the number of {@code NodeNames} in the request
     */
    public static List<SchedulerEvent> filteringFailed(Map<String, NodeRejection> rejected, int requestedNodes) {
        Map<String, List<String>> nodesByReason = new TreeMap<>();
        rejected.forEach((node, rejection) -> {
            if (rejection instanceof DeviceRejection devices) {
                for (FitReason word : devices.reasons()) {
                    nodesByReason.computeIfAbsent(word.name(), k -> new ArrayList<>()).add(node);
                }
            }
        });
        List<SchedulerEvent> out = new ArrayList<>(nodesByReason.size() + 1);
        nodesByReason.forEach((word, nodes) -> {
            Collections.sort(nodes);
            out.add(warning(FILTERING_FAILED, nodes.size() + " nodes " + word + "(" + String.join(",", nodes) + ")"));
        });
        out.add(warning(FILTERING_FAILED, "no available node, " + requestedNodes + " nodes do not meet"));
        return List.copyOf(out);
    }

    /** A {@code FilteringFailed} warning carrying an error text (invalid request, failed patch, ...). */
    public static SchedulerEvent filteringError(String error) {
        return warning(FILTERING_FAILED, error);
    }

    /** {@code Successfully binding node [<node>] to <ns>/<name>}. */
    public static SchedulerEvent bindingSucceeded(String node, String namespace, String name) {
        return new SchedulerEvent(BINDING_SUCCEED, Type.Normal,
                "Successfully binding node [" + node + "] to " + namespace + "/" + name);
    }

    /** A {@code BindingFailed} warning carrying the error text. */
    public static SchedulerEvent bindingFailed(String error) {
        return warning(BINDING_FAILED, error);
    }

    private static SchedulerEvent warning(String reason, String message) {
        return new SchedulerEvent(reason, Type.Warning, message);
    }

    /** Go's {@code %.2f} of a float32: the exact binary value rounded half-to-even to two places. */
    static String twoDecimals(float score) {
        if (Float.isNaN(score)) {
            return "NaN";
        }
        if (Float.isInfinite(score)) {
            return score > 0 ? "+Inf" : "-Inf";
        }
        // one call per fitting node of every filter (thousands per call on large clusters): exact long arithmetic
        // instead of a BigDecimal. A float has a 24-bit mantissa, so score * 100 is exact in a double; below 2^52
        // its integer and fractional parts are exact too, and the fraction decides the rounding as BigDecimal would
        double scaled = Math.abs((double) score) * 100.0;
        if (scaled >= 0x1p52) {
            return new BigDecimal(score).setScale(2, RoundingMode.HALF_EVEN).toPlainString();
        }
        long cents = (long) scaled;
        double fraction = scaled - cents;
        if (fraction > 0.5 || (fraction == 0.5 && (cents & 1) == 1)) {
            cents++;
        }
        StringBuilder out = new StringBuilder(12);
        if (score < 0 && cents != 0) {
            out.append('-');
        }
        out.append(cents / 100).append('.');
        long rest = cents % 100;
        return out.append(rest < 10 ? "0" : "").append(rest).toString();
    }
}
