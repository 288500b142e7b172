package io.vgpu.deviceplugin;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.grpc.stub.StreamObserver;
import io.vgpu.deviceplugin.v1beta1.DevicePluginGrpc;
import io.vgpu.deviceplugin.v1beta1.Empty;
import io.vgpu.deviceplugin.v1beta1.ListAndWatchResponse;
import io.vgpu.deviceplugin.v1beta1.RegisterRequest;
import io.vgpu.deviceplugin.v1beta1.RegistrationGrpc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A stand-in for kubelet's device manager, built on grpc-java (not Vert.x) over epoll Unix sockets:
 * serves {@code Registration} on {@code kubelet.sock} and dials plugins the way kubelet does
 * (authority {@code localhost}).
 */
final class FakeKubelet implements AutoCloseable {

    private final Path socket;
    private final EpollEventLoopGroup group = new EpollEventLoopGroup(1);
    private final BlockingQueue<RegisterRequest> registrations = new LinkedBlockingQueue<>();
    private final Server server;

    private FakeKubelet(Path socket) throws IOException {
        this.socket = socket;
        Files.deleteIfExists(socket);
        this.server = NettyServerBuilder.forAddress(new DomainSocketAddress(socket.toString()))
                .channelType(EpollServerDomainSocketChannel.class)
                .bossEventLoopGroup(group)
                .workerEventLoopGroup(group)
                .addService(new RegistrationGrpc.RegistrationImplBase() {
                    @Override
                    public void register(RegisterRequest request, StreamObserver<Empty> response) {
                        registrations.add(request);
                        response.onNext(Empty.getDefaultInstance());
                        response.onCompleted();
                    }
                })
                .build()
                .start();
    }

    /** Starts serving Registration on {@code socket} (replacing a stale file, as kubelet does). */
    static FakeKubelet start(Path socket) throws IOException {
        return new FakeKubelet(socket);
    }

    /** The next registration, or null after {@code timeout}. */
    RegisterRequest awaitRegistration(Duration timeout) throws InterruptedException {
        return registrations.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Dials a plugin socket like kubelet (authority {@code localhost}, plaintext). */
    PluginConnection connect(Path pluginSocket) {
        ManagedChannel channel = NettyChannelBuilder.forAddress(new DomainSocketAddress(pluginSocket.toString()))
                .eventLoopGroup(group)
                .channelType(EpollDomainSocketChannel.class)
                .overrideAuthority("localhost")
                .usePlaintext()
                .build();
        return new PluginConnection(channel);
    }

    /** Stops serving and removes the socket file. */
    @Override
    public void close() throws Exception {
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
        Files.deleteIfExists(socket);
    }

    /** kubelet's connection to one plugin. */
    static final class PluginConnection implements AutoCloseable {
        final ManagedChannel channel;
        final DevicePluginGrpc.DevicePluginBlockingStub blocking;
        final BlockingQueue<ListAndWatchResponse> updates = new LinkedBlockingQueue<>();
        final BlockingQueue<String> streamEnds = new LinkedBlockingQueue<>();

        PluginConnection(ManagedChannel channel) {
            this.channel = channel;
            this.blocking = DevicePluginGrpc.newBlockingStub(channel).withDeadlineAfter(20, TimeUnit.SECONDS);
        }

        /** Opens ListAndWatch; every message lands in {@link #updates}, the end in {@link #streamEnds}. */
        PluginConnection watch() {
            DevicePluginGrpc.newStub(channel).listAndWatch(Empty.getDefaultInstance(), new StreamObserver<>() {
                @Override
                public void onNext(ListAndWatchResponse value) {
                    updates.add(value);
                }

                @Override
                public void onError(Throwable t) {
                    streamEnds.add("error: " + t);
                }

                @Override
                public void onCompleted() {
                    streamEnds.add("completed");
                }
            });
            return this;
        }

        ListAndWatchResponse nextUpdate(Duration timeout) throws InterruptedException {
            return updates.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }

        @Override
        public void close() throws InterruptedException {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }
}
