package io.vgpu.deviceplugin;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The device plugin never talks to Hazelcast (the Maven enforcer also bans the dependency), and its
 * allocation rules in {@code io.vgpu.deviceplugin.core} are pure, its concerns layer (allocate and register over
 * pending, advertise, gpu, mig), and its packages form no cycle.
 */
class DevicePluginArchitectureTest {

    private static final JavaClasses PLUGIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.vgpu.deviceplugin");

    @Test
    void devicePluginNeverUsesHazelcast() {
        noClasses().that().resideInAPackage("io.vgpu.deviceplugin..")
                .should().dependOnClassesThat().resideInAnyPackage("com.hazelcast..", "io.vgpu.state.store..")
                .because("the node agent must work with the stock HAMi scheduler and never joins the cluster state")
                .allowEmptyShould(true)
                .check(PLUGIN);
    }

    @Test
    void allocationCoreUsesOnlyTheJdkAndThePureModel() {
        classes().that().resideInAPackage("io.vgpu.deviceplugin.core..")
                .should().onlyDependOnClassesThat().resideInAnyPackage(
                        "java..", "io.vgpu.state.model..", "io.vgpu.state.codec..", "io.vgpu.state.dra..",
                        "io.vgpu.deviceplugin.core..")
                .because("the core is plain Java over ports; adapters (gRPC, fabric8, JNI, files) plug in from outside")
                .check(PLUGIN);
    }

    @Test
    void allocationCoreImportsNoFrameworks() {
        noClasses().that().resideInAPackage("io.vgpu.deviceplugin.core..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.vertx..", "com.hazelcast..", "io.fabric8..", "io.grpc..", "com.google.protobuf..",
                        "io.netty..", "io.vgpu.hamicore..")
                .because("the device plugin's allocation rules are pure (STYLE.md section 9)")
                .allowEmptyShould(true)
                .check(PLUGIN);
    }

    @Test
    void coreConcernsLayerServicesOverRules() {
        String core = "io.vgpu.deviceplugin.core.";
        noClasses().that().resideInAnyPackage(core + "pending..", core + "advertise..", core + "gpu..", core + "mig..",
                        core + "health..", core + "outcome..", core + "cluster..", core + "hook..", core + "port..")
                .should().dependOnClassesThat().resideInAnyPackage(core + "allocate..", core + "register..")
                .because("allocate and register are the services over the pending pod, the advertised devices and the "
                        + "GPUs' facts; nothing below them reaches up")
                .check(PLUGIN);
        noClasses().that().resideInAPackage(core + "allocate..")
                .should().dependOnClassesThat().resideInAPackage(core + "register..")
                .because("the register reads the allocate settings; an Allocate never reads the register")
                .check(PLUGIN);
    }

    @Test
    void draPrepareDecisionsArePure() {
        classes().that().resideInAPackage("io.vgpu.deviceplugin.dra.prepare..")
                .should().onlyDependOnClassesThat().resideInAnyPackage(
                        "java..", "io.vgpu.state.model..", "io.vgpu.state.codec..", "io.vgpu.state.dra..",
                        "io.vgpu.deviceplugin.core..", "io.vgpu.deviceplugin.dra.prepare..", "io.vgpu.deviceplugin.cdi..")
                .because("what to prepare, the env and mounts and the guard's arithmetic are plain Java over ports; "
                        + "gRPC, fabric8 and files are adapters in io.vgpu.deviceplugin.dra.kubelet")
                .check(PLUGIN);
        noClasses().that().resideInAPackage("io.vgpu.deviceplugin.dra.prepare..")
                .should().dependOnClassesThat().haveSimpleName("CdiSpecFiles")
                .orShould().dependOnClassesThat().haveSimpleName("CdiJson")
                .because("the prepare core builds CDI specs as values; writing them is the files adapter's job")
                .check(PLUGIN);
    }

    @Test
    void cdiModelIsPlainJavaApartFromItsCodecAndFiles() {
        classes().that().resideInAPackage("io.vgpu.deviceplugin.cdi..")
                .and().doNotHaveSimpleName("CdiJson").and().doNotHaveSimpleName("CdiSpecFiles")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.vgpu.deviceplugin.cdi..")
                .because("device-plugin mode's CDI strategies will reuse the model (issue 15 item 5)")
                .check(PLUGIN);
    }

    @Test
    void packagesAreFreeOfCycles() {
        slices().matching("io.vgpu.deviceplugin.(**)")
                .should().beFreeOfCycles()
                .because("a package reads as one concern over the ones below it (STYLE.md: no package cycles)")
                .check(PLUGIN);
    }
}
