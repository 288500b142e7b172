package io.vgpu.simulate.dra.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.math.BigDecimal;
import java.util.List;
import java.util.function.Function;

/**
 * Kubernetes' CEL quantity and semver libraries ({@code k8s.io/apiserver/pkg/cel/library}) as cel-java
 * declarations (for the compiler) and bindings (for the runtime), backed by {@link QuantityValue} and
 * {@link Semver}. A bad argument ({@code quantity('x')}, {@code asInteger()} of a fraction) is an evaluation
 * error, as upstream.
 */
final class KubernetesLibrary {

    static final OpaqueType QUANTITY = OpaqueType.create("kubernetes.Quantity");
    static final OpaqueType SEMVER = OpaqueType.create("kubernetes.Semver");

    private static final CelType STRING = SimpleType.STRING;
    private static final CelType BOOL = SimpleType.BOOL;
    private static final CelType INT = SimpleType.INT;

    private KubernetesLibrary() {
    }

    static List<CelFunctionDecl> declarations() {
        return List.of(
                fn("quantity", CelOverloadDecl.newGlobalOverload("quantity_string", QUANTITY, STRING)),
                fn("isQuantity", CelOverloadDecl.newGlobalOverload("is_quantity_string", BOOL, STRING)),
                fn("sign", member("quantity_sign", INT, QUANTITY)),
                fn("isInteger", member("quantity_is_integer", BOOL, QUANTITY)),
                fn("asInteger", member("quantity_get_integer", INT, QUANTITY)),
                fn("asApproximateFloat", member("quantity_get_float", SimpleType.DOUBLE, QUANTITY)),
                fn("add", member("quantity_add", QUANTITY, QUANTITY, QUANTITY),
                        member("quantity_add_int", QUANTITY, QUANTITY, INT)),
                fn("sub", member("quantity_sub", QUANTITY, QUANTITY, QUANTITY),
                        member("quantity_sub_int", QUANTITY, QUANTITY, INT)),
                fn("compareTo", member("quantity_compare_to", INT, QUANTITY, QUANTITY),
                        member("semver_compare_to", INT, SEMVER, SEMVER)),
                fn("isGreaterThan", member("quantity_is_greater_than", BOOL, QUANTITY, QUANTITY),
                        member("semver_is_greater_than", BOOL, SEMVER, SEMVER)),
                fn("isLessThan", member("quantity_is_less_than", BOOL, QUANTITY, QUANTITY),
                        member("semver_is_less_than", BOOL, SEMVER, SEMVER)),
                fn("semver", CelOverloadDecl.newGlobalOverload("string_to_semver", SEMVER, STRING),
                        CelOverloadDecl.newGlobalOverload("string_bool_to_semver", SEMVER, STRING, BOOL)),
                fn("isSemver", CelOverloadDecl.newGlobalOverload("is_semver_string", BOOL, STRING),
                        CelOverloadDecl.newGlobalOverload("is_semver_string_bool", BOOL, STRING, BOOL)),
                fn("major", member("semver_major", INT, SEMVER)),
                fn("minor", member("semver_minor", INT, SEMVER)),
                fn("patch", member("semver_patch", INT, SEMVER)));
    }

    static List<CelFunctionBinding> bindings() {
        Class<QuantityValue> q = QuantityValue.class;
        Class<Semver> s = Semver.class;
        return List.of(
                CelFunctionBinding.from("quantity_string", String.class, text -> parsed(QuantityValue::parse, text)),
                CelFunctionBinding.from("is_quantity_string", String.class, QuantityValue::isQuantity),
                CelFunctionBinding.from("quantity_sign", q, a -> (long) a.sign()),
                CelFunctionBinding.from("quantity_is_integer", q, QuantityValue::isInteger),
                CelFunctionBinding.from("quantity_get_integer", q, KubernetesLibrary::asInteger),
                CelFunctionBinding.from("quantity_get_float", q, QuantityValue::asApproximateDouble),
                CelFunctionBinding.from("quantity_add", q, q, QuantityValue::add),
                CelFunctionBinding.from("quantity_add_int", q, Long.class, (a, b) -> a.add(integer(b))),
                CelFunctionBinding.from("quantity_sub", q, q, QuantityValue::subtract),
                CelFunctionBinding.from("quantity_sub_int", q, Long.class, (a, b) -> a.subtract(integer(b))),
                CelFunctionBinding.from("quantity_compare_to", q, q, (a, b) -> (long) Integer.signum(a.compareTo(b))),
                CelFunctionBinding.from("quantity_is_greater_than", q, q, (a, b) -> a.compareTo(b) > 0),
                CelFunctionBinding.from("quantity_is_less_than", q, q, (a, b) -> a.compareTo(b) < 0),
                CelFunctionBinding.from("semver_compare_to", s, s, (a, b) -> (long) Integer.signum(a.compareTo(b))),
                CelFunctionBinding.from("semver_is_greater_than", s, s, (a, b) -> a.compareTo(b) > 0),
                CelFunctionBinding.from("semver_is_less_than", s, s, (a, b) -> a.compareTo(b) < 0),
                CelFunctionBinding.from("string_to_semver", String.class, text -> parsed(Semver::parse, text)),
                CelFunctionBinding.from("string_bool_to_semver", String.class, Boolean.class,
                        (text, normalize) -> parsed(normalize ? Semver::parseNormalized : Semver::parse, text)),
                CelFunctionBinding.from("is_semver_string", String.class, text -> Semver.isSemver(text, false)),
                CelFunctionBinding.from("is_semver_string_bool", String.class, Boolean.class, Semver::isSemver),
                CelFunctionBinding.from("semver_major", s, Semver::major),
                CelFunctionBinding.from("semver_minor", s, Semver::minor),
                CelFunctionBinding.from("semver_patch", s, Semver::patch));
    }

    private static CelFunctionDecl fn(String name, CelOverloadDecl... overloads) {
        return CelFunctionDecl.newFunctionDeclaration(name, overloads);
    }

    private static CelOverloadDecl member(String id, CelType result, CelType... params) {
        return CelOverloadDecl.newMemberOverload(id, result, params);
    }

    private static QuantityValue integer(long n) {
        return QuantityValue.of(BigDecimal.valueOf(n), false);
    }

    private static Object asInteger(QuantityValue q) throws CelEvaluationException {
        try {
            return q.asLong();
        } catch (ArithmeticException e) {
            throw new CelEvaluationException(e.getMessage(), e);
        }
    }

    private static <T> T parsed(Function<String, T> parser, String text) throws CelEvaluationException {
        try {
            return parser.apply(text);
        } catch (IllegalArgumentException e) {
            throw new CelEvaluationException(e.getMessage(), e);
        }
    }
}
