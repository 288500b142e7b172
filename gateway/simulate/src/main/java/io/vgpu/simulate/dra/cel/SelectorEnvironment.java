package io.vgpu.simulate.dra.cel;

import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelOptions;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import dev.cel.runtime.CelStandardFunctions;
import dev.cel.runtime.RuntimeEquality;
import dev.cel.runtime.RuntimeHelpers;
import dev.cel.runtime.standard.InOperator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The cel-java environment of DRA selectors, the counterpart of {@code dynamic-resource-allocation/cel}'s
 * compiler: the variable {@code device} of type {@code kubernetes.DRADevice} (so {@code device.foo} is a
 * compile error), the standard macros and functions, {@code cel.bind}, the string extension library, and
 * Kubernetes' quantity and semver functions. The {@code in} operator on maps is rebound so that a
 * {@link DomainMap} answers for present domains only (the standard one would use {@code get}).
 */
final class SelectorEnvironment {

    private static final CelType ATTRIBUTES = MapType.create(SimpleType.STRING, MapType.create(SimpleType.STRING, SimpleType.DYN));
    private static final CelType CAPACITY =
            MapType.create(SimpleType.STRING, MapType.create(SimpleType.STRING, KubernetesLibrary.QUANTITY));
    private static final Map<String, CelType> FIELDS = Map.of(
            "driver", SimpleType.STRING,
            "allowMultipleAllocations", SimpleType.BOOL,
            "attributes", ATTRIBUTES,
            "capacity", CAPACITY);
    static final StructType DEVICE = StructType.create("kubernetes.DRADevice", ImmutableSet.copyOf(FIELDS.keySet()),
            field -> Optional.ofNullable(FIELDS.get(field)));

    private SelectorEnvironment() {
    }

    static Cel build(int maxExpressionLength) {
        CelOptions options = CelOptions.current()
                .maxExpressionCodePointSize(maxExpressionLength)
                .enableHeterogeneousNumericComparisons(true)
                .build();
        CelCompiler compiler = CelCompilerFactory.standardCelCompilerBuilder()
                .setOptions(options)
                .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
                .setTypeProvider(new DeviceTypes())
                .addVar("device", DEVICE)
                .addFunctionDeclarations(KubernetesLibrary.declarations())
                .addLibraries(CelExtensions.bindings(), CelExtensions.strings())
                .build();
        RuntimeEquality equality = RuntimeEquality.create(RuntimeHelpers.create(), options);
        CelRuntime runtime = CelRuntimeFactory.standardCelRuntimeBuilder()
                .setOptions(options)
                .setStandardEnvironmentEnabled(false)
                .setStandardFunctions(CelStandardFunctions.newBuilder()
                        .filterFunctions((function, overload) -> overload != InOperator.InOverload.IN_MAP)
                        .build())
                .addFunctionBindings(CelFunctionBinding.from("in_map", Object.class, Map.class,
                        (key, map) -> map instanceof DomainMap d ? d.containsDomain(key) : equality.inMap(map, key)))
                .addFunctionBindings(KubernetesLibrary.bindings())
                .addLibraries(CelExtensions.strings())
                .build();
        return CelFactory.combine(compiler, runtime);
    }

    /** Makes {@code kubernetes.DRADevice} and the two opaque types known to the checker. */
    private static final class DeviceTypes implements CelTypeProvider {
        private final List<CelType> types = List.of(DEVICE, KubernetesLibrary.QUANTITY, KubernetesLibrary.SEMVER);

        @Override
        public ImmutableCollection<CelType> types() {
            return ImmutableList.copyOf(types);
        }

        @Override
        public Optional<CelType> findType(String name) {
            return types.stream().filter(t -> t.name().equals(name)).findFirst();
        }
    }
}
