package io.vgpu.gateway;

import com.sun.management.OperatingSystemMXBean;
import io.vertx.core.VertxOptions;
import io.vgpu.gateway.config.ConfigurationException;
import io.vgpu.gateway.config.EnvReader;
import io.vgpu.gateway.core.dra.DraConfig;
import io.vgpu.state.codec.GoDuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code vgpu-gateway serve}: the command line, not the composition root. Parses {@link GatewayConfig} and
 * {@link ClusterConfig} (fail fast: exit status 2 with every problem listed), hands them to
 * {@link GatewayAssembly#start} (which builds and deploys everything; a start that fails exits 1), and on SIGTERM
 * drains in-flight requests before exiting.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Run the gateway: /webhook, /healthz, /readyz on VGPU_HTTP_PORT, /metrics on VGPU_METRICS_PORT.",
            "Configured only by VGPU_* environment variables (see README, 'Running the gateway')."})
final class ServeCommand implements Callable<Integer> {

    /** Exit status when the configuration is unusable. */
    static final int CONFIG_ERROR = 2;
    /** Exit status when the listeners cannot start. */
    static final int START_ERROR = 1;

    private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final Map<String, String> env;
    private final ViewFeeds feeds;

    ServeCommand() {
        this(System.getenv());
    }

    ServeCommand(Map<String, String> env) {
        this(env, ViewFeeds.DIRECT);
    }

    /**
     * @param env   where the {@code VGPU_*} settings come from
     * @param feeds how change events reach the local views ({@link ViewFeeds#DIRECT} but in the chaos harness)
     */
    ServeCommand(Map<String, String> env, ViewFeeds feeds) {
        this.env = env;
        this.feeds = feeds;
    }

    @Override
    public Integer call() throws InterruptedException {
        GatewayConfig config;
        ClusterConfig cluster;
        DraConfig dra;
        try {
            EnvReader reader = new EnvReader(env, GatewayConfig.PREFIX);
            config = GatewayConfig.read(reader);
            cluster = ClusterConfig.read(reader, config == null ? "0.0.0.0" : config.bindAddress());
            dra = DraSettings.read(reader);
            reader.finish();
        } catch (ConfigurationException e) {
            System.err.println(e.getMessage());
            return CONFIG_ERROR;
        }
        LOG.info("starting vgpu-gateway: {}", config.redacted());
        logHeap();
        RunningGateway running;
        try {
            running = GatewayAssembly.start(config, cluster, dra, feeds, new VertxOptions()).toCompletionStage().toCompletableFuture()
                    .get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            LOG.error("vgpu-gateway could not start", e.getCause() == null ? e : e.getCause());
            return START_ERROR;
        }
        LOG.info("vgpu-gateway listening: api {}://{}:{} metrics http://{}:{}/metrics",
                config.plainHttp() ? "http" : "https", config.bindAddress(), running.apiPort(), config.bindAddress(),
                running.metricsPort());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("shutting down: draining in-flight requests for up to {}",
                    GoDuration.format(config.shutdownTimeout()));
            running.closeAndWait(config.shutdownTimeout().plusSeconds(5));
            LOG.info("vgpu-gateway stopped");
            stopped.countDown();
        }, "vgpu-shutdown"));
        stopped.await();
        return 0;
    }

    private static void logHeap() {
        long visible = ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getTotalMemorySize();
        JvmHeap.Line line = JvmHeap.describe(Runtime.getRuntime().maxMemory(), visible,
                ManagementFactory.getRuntimeMXBean().getInputArguments());
        if (line.warning()) {
            LOG.warn(line.text());
        } else {
            LOG.info(line.text());
        }
    }
}
