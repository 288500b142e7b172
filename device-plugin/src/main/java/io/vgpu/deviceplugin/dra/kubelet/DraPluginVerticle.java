package io.vgpu.deviceplugin.dra.kubelet;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.grpc.server.GrpcServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Serves the kubelet DRA services on {@code dra.sock}, then the registration service on the
 * plugin-watcher socket (spec/dra-spec.md §4.1: the registration socket appears only once
 * {@code dra.sock} serves, because the kubelet dials the DRA socket right after registering):
 *
 * <pre>
 *  start: remove a stale dra.sock ─► serve v1 + v1beta1 DRAPlugin ─► remove a stale registration
 *         socket ─► serve Registration (the kubelet notices the socket and registers the driver)
 *         any step failing ─► close what was opened, remove both sockets, fail
 *  stop:  close Registration, remove its socket (= deregistration) ─► close DRAPlugin, remove dra.sock
 * </pre>
 *
 * Plain NIO Unix sockets (no native transport), as the device plugin.
 */
final class DraPluginVerticle extends VerticleBase {

    private static final Logger LOG = LoggerFactory.getLogger(DraPluginVerticle.class);

    private final DraCalls calls;
    private final Path draSocket;
    private final Path registrationSocket;
    private HttpServer draServer;
    private HttpServer registrationServer;

    DraPluginVerticle(DraCalls calls, Path draSocket, Path registrationSocket) {
        this.calls = Objects.requireNonNull(calls, "calls");
        this.draSocket = Objects.requireNonNull(draSocket, "draSocket").toAbsolutePath();
        this.registrationSocket = Objects.requireNonNull(registrationSocket, "registrationSocket").toAbsolutePath();
    }

    @Override
    public Future<?> start() {
        return serveDra()
                .compose(v -> serveRegistration())
                .onSuccess(v -> LOG.info("DRA driver serving {} (v1.DRAPlugin, v1beta1.DRAPlugin) and registering through {}",
                        draSocket, registrationSocket))
                .recover(error -> stop().transform(ignored -> Future.failedFuture(error)));
    }

    @Override
    public Future<?> stop() {
        HttpServer registration = registrationServer;
        HttpServer dra = draServer;
        registrationServer = null;
        draServer = null;
        return close(registration).eventually(() -> remove(registrationSocket))
                .eventually(() -> close(dra)).eventually(() -> remove(draSocket));
    }

    private Future<Void> serveDra() {
        GrpcServer grpc = GrpcServer.server(vertx);
        grpc.addService(new DraV1Endpoint(calls));
        grpc.addService(new DraV1beta1Endpoint(calls));
        return listen(draSocket, grpc).map(server -> {
            draServer = server;
            return null;
        });
    }

    private Future<Void> serveRegistration() {
        GrpcServer grpc = GrpcServer.server(vertx);
        grpc.addService(new RegistrationEndpoint(draSocket));
        return listen(registrationSocket, grpc).map(server -> {
            registrationServer = server;
            return null;
        });
    }

    private Future<HttpServer> listen(Path socket, GrpcServer grpc) {
        HttpServer server = vertx.createHttpServer(new HttpServerOptions()).requestHandler(grpc);
        return vertx.fileSystem().mkdirs(socket.getParent().toString())
                .compose(v -> remove(socket))
                .compose(v -> server.listen(SocketAddress.domainSocketAddress(socket.toString())))
                .recover(e -> Future.failedFuture(new IllegalStateException("cannot serve on " + socket + ": " + e.getMessage(), e)));
    }

    private static Future<Void> close(HttpServer server) {
        return server == null ? Future.succeededFuture() : server.close().recover(e -> Future.succeededFuture());
    }

    private Future<Void> remove(Path socket) {
        String path = socket.toString();
        return vertx.fileSystem().exists(path)
                .compose(exists -> exists ? vertx.fileSystem().delete(path) : Future.succeededFuture())
                .recover(e -> {
                    LOG.warn("cannot remove {}: {}", socket, e.getMessage());
                    return Future.succeededFuture();
                });
    }
}
