package io.vgpu.gateway;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vgpu.state.model.ClusterState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A gateway {@link GatewayAssembly#start started}.
 *
 * @param vertx       its Vert.x instance
 * @param apiPort     bound API port
 * @param metricsPort bound metrics port
 * @param state       the shared cluster state this gateway schedules on (read-only use by in-process
 *                    observers such as {@code simulate}); null when Kubernetes is off
 * @param closer      stops the cluster side (informers, Kubernetes client, Hazelcast member)
 */
public record RunningGateway(Vertx vertx, int apiPort, int metricsPort, ClusterState state, Runnable closer) {

    private static final Logger LOG = LoggerFactory.getLogger(RunningGateway.class);

    /** Undeploys everything (draining the API listener), closes Vert.x, then leaves the cluster. */
    public Future<Void> close() {
        return vertx.close().andThen(done -> closer.run());
    }

    /** {@link #close()} and waits for it, at most {@code timeout}; failures are logged. */
    public void closeAndWait(Duration timeout) {
        try {
            close().toCompletionStage().toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("shutdown did not complete cleanly: {}", e.toString());
        }
    }
}
