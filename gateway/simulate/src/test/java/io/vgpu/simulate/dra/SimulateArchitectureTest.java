package io.vgpu.simulate.dra;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.vgpu.testsupport.PackageCycles;
import org.junit.jupiter.api.Test;

/** The simulator module's packages form no cycle, and the CEL layer knows nothing of the allocator. */
class SimulateArchitectureTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.vgpu.simulate");

    @Test
    void noPackageCycles() {
        slices().matching("io.vgpu.simulate.(**)").should().beFreeOfCycles().check(CLASSES);
    }

    @Test
    void celDoesNotDependOnTheAllocator() {
        noClasses().that().resideInAPackage("io.vgpu.simulate.dra.cel..")
                .should().dependOnClassesThat().resideInAPackage("io.vgpu.simulate.dra")
                .because("selectors are evaluated below the allocator, which only calls them").check(CLASSES);
    }

    @Test
    void noFrameworkOrGatewayImports() {
        noClasses().that().resideInAPackage("io.vgpu.simulate.dra..")
                .should().dependOnClassesThat().resideInAnyPackage("io.vertx..", "com.hazelcast..", "io.vgpu.gateway..",
                        "io.fabric8.kubernetes.client..")
                .because("the allocator is a pure function of the cluster objects it is given").check(CLASSES);
    }

    @Test
    void packagesFormNoCycle() {
        PackageCycles.assertNoneUnder("io.vgpu.simulate");
    }
}
