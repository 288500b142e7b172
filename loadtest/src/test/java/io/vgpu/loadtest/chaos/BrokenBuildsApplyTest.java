package io.vgpu.loadtest.chaos;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The evidence that the chaos checker can fail (docs/reliability.md, "Can the checker fail?") is a set of patches in
 * {@code loadtest/broken-builds/} that {@code scripts/chaos-broken.sh} applies to the tree. A refactor that moves the
 * code a patch touches would silently turn that evidence into a script that no longer runs: every patch must still
 * apply to the working tree ({@code git apply --check}), and every one must be recorded in docs/reliability.md. A
 * patch that no longer applies is made again against the new code (and run again through the script). Skipped only
 * when the build does not run inside a git checkout (a source export has no patches to guard against drift).
 */
class BrokenBuildsApplyTest {

    @Test
    void everyBrokenBuildStillAppliesToTheTreeAndIsRecorded() throws IOException, InterruptedException {
        Optional<Path> root = checkoutRoot(Path.of("").toAbsolutePath());
        assumeTrue(root.isPresent(), () -> "not inside a git checkout (no .git above " + Path.of("").toAbsolutePath()
                + "): the broken-build patches are not checked against the tree");
        Path builds = root.get().resolve("loadtest").resolve("broken-builds");
        List<Path> patches;
        try (Stream<Path> files = Files.list(builds)) {
            patches = files.filter(f -> f.getFileName().toString().endsWith(".patch")).sorted().toList();
        }
        List<String> names = patches.stream().map(p -> p.getFileName().toString().replace(".patch", "")).toList();
        assertThat(patches).as("broken builds in %s", builds).isNotEmpty();
        String doc = Files.readString(root.get().resolve("docs").resolve("reliability.md"));

        List<String> stale = new ArrayList<>();
        for (Path patch : patches) {
            String problem = applyCheck(root.get(), patch);
            if (!problem.isEmpty()) {
                stale.add(patch.getFileName() + ": " + problem);
            }
        }
        assertThat(stale).as("broken builds that no longer apply to the tree: make each again against the current "
                + "code and run it through scripts/chaos-broken.sh (docs/reliability.md)").isEmpty();
        assertThat(names.stream().filter(name -> !doc.contains("| `" + name + "` |")).toList())
                .as("broken builds without their row in docs/reliability.md (| `NAME` | how it is broken | the "
                        + "first violation | when |)").isEmpty();
    }

    /** The directory holding {@code .git} (a directory, or a file in a linked worktree), from here upwards. */
    private static Optional<Path> checkoutRoot(Path from) {
        for (Path dir = from; dir != null; dir = dir.getParent()) {
            if (Files.exists(dir.resolve(".git"))) {
                return Optional.of(dir);
            }
        }
        return Optional.empty();
    }

    /** {@code git apply --check} from the repository root (paths in the patches are relative to it); git's complaint. */
    private static String applyCheck(Path root, Path patch) throws IOException, InterruptedException {
        Process git = new ProcessBuilder("git", "apply", "--check", patch.toString()).directory(root.toFile())
                .redirectErrorStream(true).start();
        git.getOutputStream().close();
        String output = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(git.waitFor(60, TimeUnit.SECONDS)).as("git apply --check %s finished", patch).isTrue();
        return git.exitValue() == 0 ? "" : output.isEmpty() ? "git apply --check exited " + git.exitValue() : output;
    }
}
