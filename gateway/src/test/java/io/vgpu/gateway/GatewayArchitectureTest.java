package io.vgpu.gateway;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * Layering of the gateway (DESIGN.md section 2): the scheduling core is pure, adapters depend on it and
 * never the other way round.
 */
class GatewayArchitectureTest {

    private static final JavaClasses GATEWAY = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.vgpu");

    @Test
    void schedulingCoreImportsNoFrameworks() {
        noClasses().that().resideInAPackage("io.vgpu.gateway.core..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.vertx..", "com.hazelcast..", "io.fabric8..", "io.grpc..", "com.google.protobuf..",
                        "io.netty..", "io.vgpu.hamicore..", "io.vgpu.state.store..", "picocli..")
                .because("the scheduling core is pure: plain Java over model values (STYLE.md section 3)")
                .check(GATEWAY);
    }

    @Test
    void schedulingCoreDoesNotReachIntoAdapters() {
        noClasses().that().resideInAPackage("io.vgpu.gateway.core..")
                .should().dependOnClassesThat().resideInAnyPackage("io.vgpu.gateway")
                .orShould().dependOnClassesThat().resideInAnyPackage(
                        "io.vgpu.gateway.webhook..", "io.vgpu.gateway.extender..", "io.vgpu.gateway.kube..",
                        "io.vgpu.gateway.http..")
                .because("dependencies point inward")
                .check(GATEWAY);
    }

    @Test
    void schedulingSpeaksNoWire() {
        noClasses().that().resideInAPackage("io.vgpu.gateway.scheduling..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.vertx.ext.web..", "io.vgpu.gateway.extender..", "io.vgpu.gateway.webhook..",
                        "io.vgpu.gateway.http..", "io.vgpu.gateway.kube..", "io.vgpu.gateway.json..",
                        "io.vgpu.gateway.simulate..", "io.vgpu.gateway")
                .because("the services return protocol-free outcomes; the handlers decode, encode and count (issue 11)")
                .check(GATEWAY);
    }
}
