package io.vgpu.gateway;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.vgpu.testsupport.PackageCycles;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

/**
 * Layering of the gateway (DESIGN.md section 2, issue 11 item 7): the scheduling core is pure, adapters depend on it
 * and never the other way round, and the packages form layers:
 * <pre>
 *   core  ←  scheduling  ←  extender, webhook, debug (handlers)  ←  root, http, metrics (composition root, listeners)
 *   core  ←  json, endpoint, config (wire support: handlers and edge)      core  ←  kube (adapters: edge only)
 * </pre>
 */
class GatewayArchitectureTest {

    private static final String[] CORE = {"io.vgpu.gateway.core.."};
    private static final String[] SCHEDULING = {"io.vgpu.gateway.scheduling.."};
    private static final String[] HANDLERS = {"io.vgpu.gateway.extender..", "io.vgpu.gateway.webhook..",
        "io.vgpu.gateway.debug.."};
    private static final String[] WIRE = {"io.vgpu.gateway.json..", "io.vgpu.gateway.endpoint..",
        "io.vgpu.gateway.config.."};
    private static final String[] ADAPTERS = {"io.vgpu.gateway.kube..", "io.vgpu.gateway.draview.."};
    private static final String[] EDGE = {"io.vgpu.gateway", "io.vgpu.gateway.http..", "io.vgpu.gateway.metrics.."};

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

    @Test
    void packagesFormLayers() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("core").definedBy(CORE)
                .layer("scheduling").definedBy(SCHEDULING)
                .layer("handlers").definedBy(HANDLERS)
                .layer("wire").definedBy(WIRE)
                .layer("adapters").definedBy(ADAPTERS)
                .layer("edge").definedBy(EDGE)
                .whereLayer("edge").mayNotBeAccessedByAnyLayer()
                .whereLayer("handlers").mayOnlyBeAccessedByLayers("edge")
                .whereLayer("adapters").mayOnlyBeAccessedByLayers("edge")
                .whereLayer("wire").mayOnlyBeAccessedByLayers("handlers", "edge")
                .whereLayer("scheduling").mayOnlyBeAccessedByLayers("handlers", "edge")
                .because("core ← scheduling ← extender/webhook handlers ← http/assembly (issue 11)")
                .check(GATEWAY);
    }

    @Test
    void everyPackageHasALayer() {
        classes().that().resideInAPackage("io.vgpu.gateway..")
                .should().resideInAnyPackage(concat(CORE, SCHEDULING, HANDLERS, WIRE, ADAPTERS, EDGE))
                .because("a new package takes its place in the layers (packagesFormLayers) before it is used")
                .check(GATEWAY);
    }

    @Test
    void packagesFormNoCycle() {
        PackageCycles.assertNoneUnder("io.vgpu.gateway");
    }

    private static String[] concat(String[]... groups) {
        return Arrays.stream(groups).flatMap(Arrays::stream).toArray(String[]::new);
    }
}
