package io.vgpu.state;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.vgpu.testsupport.PackageCycles;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** The model and codecs are pure: the JDK and (for the codecs) Jackson only. */
class ModelArchitectureTest {

    private static final JavaClasses MODEL = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.vgpu.state");

    @Test
    void modelAndCodecsImportNoFrameworks() {
        noClasses().that().resideInAnyPackage("io.vgpu.state.model..", "io.vgpu.state.codec..", "io.vgpu.state.dra..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.vertx..", "com.hazelcast..", "io.fabric8..", "io.grpc..", "com.google.protobuf..",
                        "io.netty..", "io.vgpu.hamicore..", "io.vgpu.gateway..", "io.vgpu.deviceplugin..",
                        "io.vgpu.state.store..")
                .because("the GPU model is pure and shared by gateway, store and device plugin (DESIGN.md section 2)")
                .check(MODEL);
    }

    @Test
    void modelDoesNotNeedJson() {
        noClasses().that().resideInAPackage("io.vgpu.state.model..")
                .should().dependOnClassesThat().resideInAnyPackage("com.fasterxml..")
                .because("only the codecs speak JSON")
                .check(MODEL);
    }

    @Test
    void packagesFormNoCycle() {
        PackageCycles.assertNoneUnder("io.vgpu.state");
    }
}
