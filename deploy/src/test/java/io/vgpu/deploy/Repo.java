package io.vgpu.deploy;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where things are: the repository, the chart, the built jars, helm. Set by deploy's pom (surefire). */
final class Repo {

    private Repo() {
    }

    /** The repository root ({@code vgpu.repo.root}, else the parent of the working directory). */
    static Path root() {
        String configured = System.getProperty("vgpu.repo.root");
        Path root = configured == null || configured.isBlank() ? Path.of("..") : Path.of(configured);
        return root.toAbsolutePath().normalize();
    }

    static Path deploy() {
        return root().resolve("deploy");
    }

    static Path chart() {
        return deploy().resolve("helm/vgpu-gateway");
    }

    /** helm from {@code vgpu.helm} (deploy's pom installs it), else deploy/.tools/bin/helm. */
    static Path helm() {
        String configured = System.getProperty("vgpu.helm");
        Path helm = configured == null || configured.isBlank() ? deploy().resolve(".tools/bin/helm") : Path.of(configured);
        if (!Files.isExecutable(helm)) {
            throw new IllegalStateException(helm + " is missing: run ../shared/tools/install-helm-kubectl.sh deploy/.tools/bin"
                    + " (deploy's Maven build does it before the tests)");
        }
        return helm;
    }

    /** A file of the repository that the Maven build produces; fails clearly when it has not been built. */
    static Path built(String relative) {
        Path file = root().resolve(relative);
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException(relative + " is missing: build it first (./mvnw -B package -DskipTests)");
        }
        return file;
    }
}
