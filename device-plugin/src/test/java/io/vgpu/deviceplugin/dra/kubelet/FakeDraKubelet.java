package io.vgpu.deviceplugin.dra.kubelet;

import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.vgpu.dra.v1.DRAPluginGrpc;
import io.vgpu.pluginregistration.v1.InfoRequest;
import io.vgpu.pluginregistration.v1.PluginInfo;
import io.vgpu.pluginregistration.v1.RegistrationGrpc;
import io.vgpu.pluginregistration.v1.RegistrationStatus;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A stand-in for the kubelet's plugin manager and DRA manager, on grpc-java (not Vert.x) over epoll
 * Unix sockets: watches the plugin-watcher directory (inotify, as the kubelet's fsnotify), dials a
 * registration socket, calls GetInfo and NotifyRegistrationStatus with the kubelet's deadlines, then
 * dials the endpoint the plugin reported and calls the DRA service with the kubelet's 45 s deadline.
 * Authority {@code localhost}, as the kubelet dials (DEPENDENCIES.md pitfall 5). Public for the whole-agent
 * test in {@code io.vgpu.deviceplugin} ({@code DraWiringEndToEndTest}).
 */
public final class FakeDraKubelet implements AutoCloseable {

    /** How often GetInfo is tried before registration counts as failed. */
    static final int GET_INFO_ATTEMPTS = 5;

    private final EpollEventLoopGroup group = new EpollEventLoopGroup(2);
    private final WatchService watcher;
    private final Thread watch;
    /** Each socket that appeared in the registry, with whether {@code dra.sock} existed at that moment. */
    final BlockingQueue<Seen> appeared = new LinkedBlockingQueue<>();

    /** Starts watching {@code registryDir} (created when missing) for sockets. */
    public FakeDraKubelet(Path registryDir, Path draSocket) throws IOException {
        Files.createDirectories(registryDir);
        watcher = FileSystems.getDefault().newWatchService();
        registryDir.register(watcher, StandardWatchEventKinds.ENTRY_CREATE);
        watch = new Thread(() -> {
            try {
                while (true) {
                    WatchKey key = watcher.take();
                    for (WatchEvent<?> e : key.pollEvents()) {
                        if (e.context() instanceof Path name) {
                            appeared.add(new Seen(registryDir.resolve(name), Files.exists(draSocket)));
                        }
                    }
                    key.reset();
                }
            } catch (InterruptedException | ClosedWatchServiceException e) {
                // closed
            }
        }, "fake-kubelet-plugin-watcher");
        watch.setDaemon(true);
        watch.start();
    }

    /** The next socket that appeared, or null after {@code seconds}. */
    public Seen nextSocket(int seconds) throws InterruptedException {
        return appeared.poll(seconds, TimeUnit.SECONDS);
    }

    /**
     * The plugin watcher's handshake: a blocking dial (10 s, as the kubelet's), GetInfo (1 s deadline;
     * a call that misses it is tried again, as the kubelet's reconciler retries a failed registration
     * every second, at most {@value #GET_INFO_ATTEMPTS} times), then NotifyRegistrationStatus (5 s).
     */
    public PluginInfo register(Path registrationSocket, boolean accept, String error) throws InterruptedException {
        ManagedChannel channel = dial(registrationSocket);
        try {
            awaitReady(channel, 10);
            PluginInfo info = getInfo(channel, GET_INFO_ATTEMPTS);
            RegistrationGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
                    .notifyRegistrationStatus(RegistrationStatus.newBuilder().setPluginRegistered(accept).setError(error).build());
            return info;
        } finally {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    /** A connection to the DRA service at {@code endpoint}. */
    public Plugin connect(String endpoint) {
        return new Plugin(dial(Path.of(endpoint)));
    }

    private static PluginInfo getInfo(ManagedChannel channel, int attempts) {
        for (int attempt = 1; ; attempt++) {
            try {
                return RegistrationGrpc.newBlockingStub(channel).withDeadlineAfter(1, TimeUnit.SECONDS)
                        .getInfo(InfoRequest.getDefaultInstance());
            } catch (StatusRuntimeException e) {
                if (e.getStatus().getCode() != Status.Code.DEADLINE_EXCEEDED || attempt == attempts) {
                    throw e;
                }
            }
        }
    }

    /** Waits until the channel is connected, as the kubelet's blocking dial does. */
    private static void awaitReady(ManagedChannel channel, int seconds) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        ConnectivityState state = channel.getState(true);
        while (state != ConnectivityState.READY && System.nanoTime() < end) {
            CountDownLatch changed = new CountDownLatch(1);
            channel.notifyWhenStateChanged(state, changed::countDown);
            changed.await(end - System.nanoTime(), TimeUnit.NANOSECONDS);
            state = channel.getState(true);
        }
    }

    private ManagedChannel dial(Path socket) {
        return NettyChannelBuilder.forAddress(new DomainSocketAddress(socket.toString()))
                .eventLoopGroup(group).channelType(EpollDomainSocketChannel.class)
                .overrideAuthority("localhost").usePlaintext().build();
    }

    @Override
    public void close() throws Exception {
        watcher.close();
        watch.interrupt();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
    }

    /**
     * A socket that appeared in the plugin-watcher directory.
     *
     * @param socket              its path
     * @param draSocketWasServing whether {@code dra.sock} existed when it appeared
     */
    public record Seen(Path socket, boolean draSocketWasServing) {
    }

    /** The kubelet's connection to one DRA driver. */
    public static final class Plugin implements AutoCloseable {
        final ManagedChannel channel;

        Plugin(ManagedChannel channel) {
            this.channel = channel;
        }

        public DRAPluginGrpc.DRAPluginBlockingStub v1() {
            return DRAPluginGrpc.newBlockingStub(channel).withDeadlineAfter(45, TimeUnit.SECONDS);
        }

        io.vgpu.dra.v1beta1.DRAPluginGrpc.DRAPluginBlockingStub v1beta1() {
            return io.vgpu.dra.v1beta1.DRAPluginGrpc.newBlockingStub(channel).withDeadlineAfter(45, TimeUnit.SECONDS);
        }

        @Override
        public void close() throws InterruptedException {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }
}
