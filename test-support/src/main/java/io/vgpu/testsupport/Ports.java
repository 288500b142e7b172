package io.vgpu.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

/** Free local ports for tests that start real servers or Hazelcast members. */
public final class Ports {

    private Ports() {
    }

    /**
     * A port that was free a moment ago, kept below 60,000: a Hazelcast member given it as its base port may
     * auto-increment upwards from it, which must stay inside the port range.
     */
    public static int free() {
        try (ServerSocket socket = new ServerSocket(0)) {
            int port = socket.getLocalPort();
            return port > 60000 ? port - 5000 : port;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
