package io.vgpu.hamicore;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.vgpu.testsupport.PackageCycles;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

/** hamicore-jni is JDK-only: the device plugin and monitor build on it without dragging anything in. */
class ArchitectureTest {

    @Test
    void mainCodeDependsOnTheJdkAlone() {
        JavaClasses main = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.vgpu.hamicore");
        classes().should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.vgpu.hamicore..")
                .check(main);
    }

    @Test
    void packagesFormNoCycle() {
        PackageCycles.assertNoneUnder("io.vgpu.hamicore");
    }
}
