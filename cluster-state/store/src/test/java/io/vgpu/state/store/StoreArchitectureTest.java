package io.vgpu.state.store;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.vgpu.testsupport.PackageCycles;
import org.junit.jupiter.api.Test;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** Hazelcast runs every processor again on the backups: processors and the transitions they call are deterministic. */
class StoreArchitectureTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.vgpu.state");

    @Test
    void processorsAndTransitionsReadNoClockAndNoRandomness() {
        noClasses().that().resideInAnyPackage("io.vgpu.state.store.processor..", "io.vgpu.state.model..")
                .should().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethod(System.class, "nanoTime")
                .orShould().callMethod(Instant.class, "now")
                .orShould().callMethod(UUID.class, "randomUUID")
                .orShould().callMethod(ThreadLocalRandom.class, "current")
                .orShould().dependOnClassesThat().areAssignableTo(Clock.class)
                .orShould().dependOnClassesThat().areAssignableTo(Random.class)
                .orShould().dependOnClassesThat().areAssignableTo(SecureRandom.class)
                .because("the time is passed in, so that backups replaying a processor reach the same value")
                .check(CLASSES);
    }

    @Test
    void processorsOnlyApplyModelTransitions() {
        noClasses().that().resideInAPackage("io.vgpu.state.store.processor..")
                .should().dependOnClassesThat().resideInAnyPackage("io.vgpu.state.codec..", "java.io..", "java.net..",
                        "java.nio..")
                .because("a processor is a small command over one value: no I/O")
                .check(CLASSES);
    }

    @Test
    void packagesFormNoCycle() {
        PackageCycles.assertNoneUnder("io.vgpu.state.store");
    }
}
