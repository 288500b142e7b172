package io.vgpu.gateway.metrics;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs {@code promtool check metrics} (Debian package {@code prometheus}; scripts/test.sh installs it)
 * on a scrape. Fails the calling test when promtool is missing or the exposition does not parse.
 */
public final class Promtool {

    /** HAMi's metric name that promtool's lint dislikes; renaming it would break HAMi dashboards. */
    public static final String HAMI_LINT_EXCEPTION =
            "hami_gpu_shared_count non-histogram and non-summary metrics should not have \"_count\" suffix";

    private Promtool() {
    }

    /** Lint findings other than HAMi's own {@link #HAMI_LINT_EXCEPTION}; the exposition must parse. */
    public static List<String> findings(String scrape) throws IOException, InterruptedException {
        assertThat(onPath("promtool"))
                .as("promtool is required (scripts/test.sh installs it: apt-get install prometheus)").isTrue();
        Process p = new ProcessBuilder("promtool", "check", "metrics").redirectErrorStream(true).start();
        p.getOutputStream().write(scrape.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).as("promtool finished").isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        // exit 1 = the exposition does not parse; exit 3 = lint findings only
        assertThat(p.exitValue()).as(out).isIn(0, 3);
        return out.lines().filter(l -> !l.isBlank() && !l.startsWith(HAMI_LINT_EXCEPTION)).toList();
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }
}
