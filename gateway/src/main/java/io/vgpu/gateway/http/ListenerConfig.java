package io.vgpu.gateway.http;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What the API listener ({@link GatewayVerticle}) needs, and nothing else of the gateway's configuration: the
 * composition root builds it from {@code GatewayConfig.listener()}.
 *
 * @param bindAddress     address to bind to
 * @param httpPort        port to bind to (0 = any free port)
 * @param tls             certificate files and client check; null means plain HTTP
 * @param shutdownTimeout how long a stop lets in-flight requests finish
 */
public record ListenerConfig(String bindAddress, int httpPort, Tls tls, Duration shutdownTimeout) {

    /** Requires the address and the drain bound. */
    public ListenerConfig {
        Objects.requireNonNull(bindAddress, "bindAddress");
        Objects.requireNonNull(shutdownTimeout, "shutdownTimeout");
    }

    /**
     * Certificate files of the API listener, and who may call the extender verbs over it.
     *
     * @param certFile       PEM certificate (chain)
     * @param keyFile        PEM private key
     * @param reloadInterval how often the files are checked for changes
     * @param clientCaFile   PEM CA certificate(s) that clients of {@code /filter} and {@code /bind} must present a
     *                       certificate of; null: no client certificate is asked for (INSECURE for the extender)
     * @param clientNames    the client certificate common names allowed to call {@code /filter} and {@code /bind}
     */
    public record Tls(Path certFile, Path keyFile, Duration reloadInterval, Path clientCaFile,
                      List<String> clientNames) {

        /** Requires the serving files; copies the names. */
        public Tls {
            Objects.requireNonNull(certFile, "certFile");
            Objects.requireNonNull(keyFile, "keyFile");
            Objects.requireNonNull(reloadInterval, "reloadInterval");
            clientNames = List.copyOf(clientNames);
        }

        /** Server-side TLS only: no client certificate is asked for. */
        public Tls(Path certFile, Path keyFile, Duration reloadInterval) {
            this(certFile, keyFile, reloadInterval, null, List.of());
        }

        /** Whether the extender verbs require a verified client certificate with an allowed name. */
        public boolean clientAuth() {
            return clientCaFile != null;
        }
    }

}
