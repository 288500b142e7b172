package io.vgpu.testsupport;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The rule every module checks (issue 11 item 7): no cycle between its packages. Each package is a slice of its
 * own, a subpackage too (so {@code core.fit → core → core.fit} is a cycle), and the root package is one like the
 * others (ArchUnit's {@code matching("root.(*)..")} would leave it out, and with it the cycles that pass through
 * the composition root).
 */
public final class PackageCycles {

    private PackageCycles() {
    }

    /** The rule over the packages named {@code root} or under it; classes elsewhere are ignored. */
    public static ArchRule noneUnder(String root) {
        return slices().assignedFrom(everyPackageUnder(root)).should().beFreeOfCycles()
                .because("packages depend one way: a cycle means two packages that cannot be read or changed apart"
                        + " (issue 11 item 7)");
    }

    /** Imports the production classes of {@code root} and its subpackages (no tests) and checks the rule. */
    public static void assertNoneUnder(String root) {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(root);
        noneUnder(root).check(classes);
    }

    private static SliceAssignment everyPackageUnder(String root) {
        return new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                String pkg = javaClass.getPackageName();
                return pkg.equals(root) || pkg.startsWith(root + ".") ? SliceIdentifier.of(pkg)
                        : SliceIdentifier.ignore();
            }

            @Override
            public String getDescription() {
                return "every package under " + root;
            }
        };
    }
}
