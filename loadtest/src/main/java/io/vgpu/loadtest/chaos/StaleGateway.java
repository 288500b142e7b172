package io.vgpu.loadtest.chaos;

import io.vgpu.gateway.Main;
import io.vgpu.gateway.ViewFeeds;
import org.slf4j.LoggerFactory;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The chaos harness's stale replica: the shipped gateway, unchanged (its jar first on the class path), started
 * through its composition seam ({@link Main#launch}) with view feeds that run every change late: its Kubernetes
 * informer events (caches and ingest) and the shared state's change events (the view {@code /filter} scores on).
 * Decisions made on that view must still never over-commit: the entry processors re-check them. There is no
 * setting in the gateway for this; only this launcher installs it.
 * <pre>
 * java -cp vgpu-gateway-all.jar:&lt;harness classes&gt; io.vgpu.loadtest.chaos.StaleGateway LAG_MILLIS serve
 * </pre>
 */
public final class StaleGateway {

    private StaleGateway() {
    }

    /** {@code LAG_MILLIS} and then the gateway's own arguments. */
    public static void main(String[] args) {
        if (args.length < 1 || !args[0].matches("\\d+")) {
            System.err.println("usage: StaleGateway LAG_MILLIS serve");
            System.exit(2);
        }
        Duration lag = Duration.ofMillis(Long.parseLong(args[0]));
        LoggerFactory.getLogger(StaleGateway.class).warn("chaos harness: this replica sees every informer and "
                + "shared-state change {} ms late (a stale view)", lag.toMillis());
        ViewFeeds late = new ViewFeeds(late("vgpu-stale-informer-events", lag), late("vgpu-stale-state-events", lag));
        System.exit(Main.launch(Arrays.copyOfRange(args, 1, args.length), late));
    }

    /**
     * Runs every task {@code lag} after it was given, in the order given: one thread and one constant delay, so
     * trigger times rise with submission order (ties run first-in, first-out).
     */
    static Executor late(String thread, Duration lag) {
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread t = new Thread(task, thread);
            t.setDaemon(true);
            return t;
        });
        return task -> scheduler.schedule(task, lag.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Where this class was loaded from (the harness's jar or classes directory), for the stale replica's class path. */
    static Path codeLocation() {
        try {
            return Path.of(StaleGateway.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the harness's classes", e);
        }
    }
}
