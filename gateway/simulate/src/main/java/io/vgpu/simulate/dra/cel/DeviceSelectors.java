package io.vgpu.simulate.dra.cel;

import dev.cel.bundle.Cel;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.CelKind;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Compiles and evaluates DRA device selectors ({@code spec.selectors[].cel.expression} of classes and
 * requests) with cel-java, in the environment of spec §2.
 *
 * <p>Limits, as upstream: an expression longer than 10 KiB (UTF-8 bytes) is refused at compile time; the
 * result must be {@code bool} (or dynamic, e.g. a bool attribute); one evaluation may cost at most
 * 1,000,000 units, enforced while it runs by a {@link CostMeter} (see there for the unit model).
 * cel-java 0.14 offers no static cost estimator, so unlike the API server nothing is rejected at compile
 * time for its worst-case cost; the scheduler-side run-time bound is the same.
 *
 * <p>Compiled programs (and compile errors) are cached per expression text. Thread-safe.
 */
public final class DeviceSelectors {

    /** Upstream's {@code CELSelectorExpressionMaxLength}. */
    public static final int MAX_EXPRESSION_BYTES = 10 * 1024;

    private final Cel cel = SelectorEnvironment.build(MAX_EXPRESSION_BYTES);
    private final long costLimit;
    private final Map<String, Compiled> cache = new ConcurrentHashMap<>();

    /** Selectors with upstream's cost limit of 1,000,000 units per evaluation. */
    public DeviceSelectors() {
        this(CostMeter.LIMIT);
    }

    /** Selectors with another cost limit per evaluation (upstream's {@code Options.CostLimit}). */
    public DeviceSelectors(long costLimit) {
        this.costLimit = costLimit;
    }

    /**
     * Checks that {@code expression} compiles to a boolean selector (cached).
     *
     * @throws SelectorException with the compiler's message (line, column and a caret) when it does not
     */
    public void validate(String expression) throws SelectorException {
        compiled(expression).program();
    }

    /**
     * Evaluates {@code expression} against {@code device}.
     *
     * @return whether the device is selected
     * @throws SelectorException when the expression does not compile, fails at run time (a missing key,
     *     a bad argument), returns no boolean, or exceeds the cost limit
     */
    public boolean matches(String expression, DeviceInput device) throws SelectorException {
        CelRuntime.Program program = compiled(expression).program();
        CostMeter meter = new CostMeter(costLimit);
        Object result;
        try {
            result = program.trace(device.variables(), meter);
        } catch (CelEvaluationException e) {
            throw new SelectorException("CEL runtime error: " + runtimeMessage(e), e);
        }
        if (result instanceof Boolean b) {
            return b;
        }
        throw new SelectorException("CEL runtime error: result of type " + (result == null ? "null" : result.getClass().getSimpleName())
                + " could not be converted to bool");
    }

    private Compiled compiled(String expression) {
        return cache.computeIfAbsent(expression, this::compile);
    }

    private Compiled compile(String expression) {
        int bytes = expression.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_EXPRESSION_BYTES) {
            return Compiled.error("CEL compile error: expression is " + bytes + " bytes long, longer than the limit of "
                    + MAX_EXPRESSION_BYTES);
        }
        CelValidationResult result = cel.compile(expression);
        if (result.hasError()) {
            return Compiled.error("CEL compile error: " + result.getErrorString());
        }
        try {
            CelAbstractSyntaxTree ast = result.getAst();
            CelKind kind = ast.getResultType().kind();
            if (kind != CelKind.BOOL && kind != CelKind.DYN && kind != CelKind.ANY) {
                return Compiled.error("CEL compile error: must evaluate to bool or the unknown type, not "
                        + ast.getResultType().name());
            }
            return new Compiled(cel.createProgram(ast), null);
        } catch (CelValidationException | CelEvaluationException e) {
            return Compiled.error("CEL compile error: " + e.getMessage());
        }
    }

    private static String runtimeMessage(CelEvaluationException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof CostMeter.CostLimitExceeded) {
                return "operation cancelled: " + t.getMessage();
            }
        }
        return e.getMessage();
    }

    /** A program or the reason there is none. */
    private record Compiled(CelRuntime.Program orNull, String error) {
        static Compiled error(String message) {
            return new Compiled(null, message);
        }

        CelRuntime.Program program() throws SelectorException {
            if (error != null) {
                throw new SelectorException(error);
            }
            return orNull;
        }
    }
}
