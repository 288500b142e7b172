package io.vgpu.simulate.dra.cel;

import dev.cel.common.ast.CelExpr;
import dev.cel.runtime.CelEvaluationListener;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The run-time cost bound of one selector evaluation, cel-go's {@code CostLimit} rebuilt on cel-java's
 * evaluation listener (cel-java 0.14 has neither a cost tracker nor a cost estimator).
 *
 * <p>The listener is called once for every sub-expression the interpreter evaluates, loops included, so the
 * meter charges what cel-go's run-time tracker charges for the same step: 0 for a constant, 1 for an
 * identifier or a field/index selection, 1 for a function call plus {@code ⌈0.1 × size⌉} for the strings,
 * lists and maps it reads (cel-go's traversal factor), 10 / 30 / 40 for creating a list / map / message,
 * and nothing for the logical operators themselves (their operands are charged). When the running total
 * passes the limit the meter throws {@link CostLimitExceeded}, which aborts the evaluation, as cel-go
 * aborts with "operation cancelled: actual cost limit exceeded". One meter per evaluation; not thread-safe.
 */
final class CostMeter implements CelEvaluationListener {

    /** Upstream's {@code resourceapi.CELSelectorExpressionMaxCost}. */
    static final long LIMIT = 1_000_000L;

    private static final Set<String> FREE_CALLS =
            Set.of("_&&_", "_||_", "_?_:_", "!_", "@not_strictly_false", "not_strictly_false");

    private final long limit;
    private final Map<Long, Integer> sizes = new HashMap<>();
    private long total;

    CostMeter(long limit) {
        this.limit = limit;
    }

    /** Units charged so far. */
    long total() {
        return total;
    }

    @Override
    public void callback(CelExpr expr, Object value) {
        int size = sizeOf(value);
        if (size >= 0) {
            sizes.put(expr.id(), size);
        }
        total += costOf(expr);
        if (total > limit) {
            throw new CostLimitExceeded(total, limit);
        }
    }

    private long costOf(CelExpr expr) {
        switch (expr.getKind()) {
            case IDENT:
            case SELECT:
                return 1;
            case LIST:
                return 10;
            case MAP:
                return 30;
            case STRUCT:
                return 40;
            case CALL:
                return callCost(expr.call());
            default:
                return 0;
        }
    }

    private long callCost(CelExpr.CelCall call) {
        if (FREE_CALLS.contains(call.function())) {
            return 0;
        }
        long traversed = 0;
        if (call.target().isPresent()) {
            traversed += sizes.getOrDefault(call.target().get().id(), 0);
        }
        for (CelExpr arg : call.args()) {
            traversed += sizes.getOrDefault(arg.id(), 0);
        }
        return 1 + (traversed + 9) / 10;
    }

    private static int sizeOf(Object value) {
        if (value instanceof String s) {
            return s.codePointCount(0, s.length());
        }
        if (value instanceof Collection<?> c) {
            return c.size();
        }
        if (value instanceof Map<?, ?> m) {
            return m.size();
        }
        return -1;
    }

    /** Thrown from inside an evaluation that ran past the limit; carries the numbers for the message. */
    static final class CostLimitExceeded extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CostLimitExceeded(long total, long limit) {
            super("actual cost limit exceeded: more than " + limit + " units (at " + total + ")", null, false, false);
        }
    }
}
