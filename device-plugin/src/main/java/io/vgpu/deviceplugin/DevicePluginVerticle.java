package io.vgpu.deviceplugin;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.grpc.server.GrpcServer;
import io.vgpu.deviceplugin.grpc.DevicePluginEndpoint;
import io.vgpu.deviceplugin.grpc.KubeletRegistration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Serves the kubelet {@code DevicePlugin} gRPC service on a Unix socket in kubelet's device-plugin
 * directory (plain NIO: JDK 16+ Unix sockets, no native transport), then registers with kubelet:
 *
 * <pre>
 *  start: delete a stale socket ─► listen ─► Register with kubelet ─ fails ─► close, delete socket, fail
 *  stop:  end ListAndWatch streams ─► close the server ─► delete the socket
 * </pre>
 *
 * One instance per (re)start: kubelet deletes plugin sockets when it restarts, so the plugin is
 * redeployed as a whole and registers again.
 */
final class DevicePluginVerticle extends VerticleBase {

    private static final Logger LOG = LoggerFactory.getLogger(DevicePluginVerticle.class);

    private final DevicePluginEndpoint endpoint;
    private final Path socket;
    private final KubeletRegistration registration;
    private HttpServer server;

    /**
     * @param registration null to serve without registering (kubelet registration disabled)
     */
    public DevicePluginVerticle(DevicePluginEndpoint endpoint, Path socket, KubeletRegistration registration) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.socket = Objects.requireNonNull(socket, "socket");
        this.registration = registration;
    }

    @Override
    public Future<?> start() {
        return deleteSocket()
                .compose(v -> listen())
                .compose(v -> register())
                .recover(error -> closeServer().transform(ignored -> Future.failedFuture(error)));
    }

    @Override
    public Future<?> stop() {
        endpoint.closeStreams();
        return closeServer();
    }

    private Future<Void> listen() {
        GrpcServer grpc = GrpcServer.server(vertx);
        grpc.addService(endpoint);
        server = vertx.createHttpServer(new HttpServerOptions()).requestHandler(grpc);
        return server.listen(SocketAddress.domainSocketAddress(socket.toString()))
                .onSuccess(s -> LOG.info("serving the device plugin on {}", socket))
                .mapEmpty();
    }

    private Future<Void> register() {
        if (registration == null) {
            LOG.info("not registering with kubelet (disabled)");
            return Future.succeededFuture();
        }
        return registration.register()
                .onSuccess(v -> LOG.info("registered {} with kubelet as {} (preferred allocation in request: {})",
                        registration.request().getResourceName(), registration.request().getEndpoint(),
                        registration.request().getOptions().getGetPreferredAllocationAvailable()));
    }

    private Future<Void> closeServer() {
        Future<Void> closed = server == null ? Future.succeededFuture() : server.close();
        server = null;
        return closed.eventually(this::deleteSocket);
    }

    private Future<Void> deleteSocket() {
        return vertx.fileSystem().exists(socket.toString())
                .compose(exists -> exists ? vertx.fileSystem().delete(socket.toString()) : Future.succeededFuture());
    }
}
