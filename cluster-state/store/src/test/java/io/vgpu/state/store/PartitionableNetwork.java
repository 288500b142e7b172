package io.vgpu.state.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback network for in-JVM members that can be cut (the open-source jar has no firewall hooks): member i binds
 * {@code 127.0.0.(11+i)} and publishes {@code 127.0.0.(21+i)}, where a forwarding proxy listens. Members bind their
 * outgoing sockets to their own address ({@code hazelcast.socket.client.bind.any=false}), so a proxy knows which
 * member connects. {@link #isolate} closes every
 * connection between a member and the others and refuses new ones until {@link #heal}, as a network partition
 * would (both sides see their peers vanish).
 */
final class PartitionableNetwork implements AutoCloseable {

    private final int port;
    private final List<ServerSocket> proxies = new ArrayList<>();
    private final List<Link> links = new CopyOnWriteArrayList<>();
    private final Set<Integer> isolated = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /** One forwarded connection: from member {@code from} to member {@code to}. */
    private record Link(int from, int to, Socket client, Socket upstream) {
        void close() {
            closeQuietly(client);
            closeQuietly(upstream);
        }
    }

    PartitionableNetwork(int members, int port) {
        this.port = port;
        for (int i = 0; i < members; i++) {
            try {
                ServerSocket proxy = new ServerSocket();
                proxy.setReuseAddress(true);
                proxy.bind(new InetSocketAddress(published(i), port));
                proxies.add(proxy);
                int to = i;
                Thread accept = new Thread(() -> accept(proxy, to), "proxy-accept-" + i);
                accept.setDaemon(true);
                accept.start();
            } catch (IOException e) {
                close();
                throw new UncheckedIOException(e);
            }
        }
    }

    /** The address member {@code i} binds. */
    static String bound(int i) {
        return "127.0.0." + (11 + i);
    }

    /** The address member {@code i} publishes (its proxy). */
    static String published(int i) {
        return "127.0.0." + (21 + i);
    }

    /** The port every member and proxy uses (each on its own address). */
    int port() {
        return port;
    }

    /** Cuts member {@code i} off from every other member. */
    void isolate(int i) {
        isolated.add(i);
        for (Link link : links) {
            if (link.from() == i || link.to() == i) {
                link.close();
                links.remove(link);
            }
        }
    }

    /** Lets every member reach every other again. */
    void heal() {
        isolated.clear();
    }

    @Override
    public void close() {
        closed = true;
        proxies.forEach(PartitionableNetwork::closeQuietly);
        links.forEach(Link::close);
    }

    private void accept(ServerSocket proxy, int to) {
        while (!closed) {
            Socket client;
            try {
                client = proxy.accept();
            } catch (IOException e) {
                return;
            }
            int from = memberOf(client.getInetAddress());
            if (from < 0 || isolated.contains(from) || isolated.contains(to)) {
                closeQuietly(client);
                continue;
            }
            try {
                Socket upstream = new Socket();
                upstream.connect(new InetSocketAddress(bound(to), port), 2_000);
                Link link = new Link(from, to, client, upstream);
                links.add(link);
                pump(link, client, upstream);
                pump(link, upstream, client);
            } catch (IOException e) {
                closeQuietly(client);
            }
        }
    }

    private void pump(Link link, Socket in, Socket out) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream from = in.getInputStream(); OutputStream to = out.getOutputStream()) {
                int n;
                while ((n = from.read(buffer)) >= 0) {
                    to.write(buffer, 0, n);
                    to.flush();
                }
            } catch (IOException e) {
                // the link was cut or a side closed
            } finally {
                link.close();
                links.remove(link);
            }
        }, "proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    private static int memberOf(InetAddress address) {
        byte[] b = address.getAddress();
        int last = b[b.length - 1] & 0xff;
        // Hazelcast binds its outgoing sockets to the member's published address, or its bound one
        return last >= 11 && last < 31 ? (last - 11) % 10 : -1;
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // closing anyway
        }
    }
}
