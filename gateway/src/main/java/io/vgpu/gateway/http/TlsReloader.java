package io.vgpu.gateway.http;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.file.FileProps;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.http.HttpServer;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.core.net.ServerSSLOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Reloads the API listener's certificate, and the CA that client certificates are verified against, when their
 * files change (controller-runtime's certwatcher, spec §2.1). Every {@code reloadInterval} it reads the
 * modification time and size of the files (asynchronously; symlinks followed, so a Secret volume's atomic
 * {@code ..data} swap counts as a change); on a change it hands the new files to {@link HttpServer#updateSSLOptions}
 * (forced, since the paths are unchanged). New connections get the new certificate and are verified against the new
 * CA; open ones keep theirs. A failed reload (e.g. a half-written pair) is logged and retried at the next tick.
 */
final class TlsReloader {

    private static final Logger LOG = LoggerFactory.getLogger(TlsReloader.class);

    private final Vertx vertx;
    private final ListenerConfig.Tls tls;
    private final AtomicReference<String> loaded = new AtomicReference<>();
    private final AtomicBoolean checking = new AtomicBoolean();
    private volatile long timer = -1;

    TlsReloader(Vertx vertx, ListenerConfig.Tls tls) {
        this.vertx = vertx;
        this.tls = tls;
    }

    /**
     * The SSL options of the current files: the serving pair and, with client authentication, the CA that a
     * presented client certificate must chain to. A client certificate is requested, never required: the API server
     * calls the webhook without one; the routes that need one check it ({@link ClientCertificateCheck}).
     */
    static ServerSSLOptions sslOptions(ListenerConfig.Tls tls) {
        ServerSSLOptions options = new ServerSSLOptions().setKeyCertOptions(keyCert(tls));
        if (tls.clientAuth()) {
            options.setTrustOptions(new PemTrustOptions().addCertPath(tls.clientCaFile().toString()))
                    .setClientAuth(ClientAuth.REQUEST);
        }
        return options;
    }

    /** The key/cert options of the files. */
    static PemKeyCertOptions keyCert(ListenerConfig.Tls tls) {
        return new PemKeyCertOptions().setCertPath(tls.certFile().toString()).setKeyPath(tls.keyFile().toString());
    }

    /** Notes the files' current state; call before the server first loads them. */
    Future<Void> snapshot() {
        return fingerprint().map(f -> {
            loaded.set(f);
            return null;
        });
    }

    /** Starts polling for changes on behalf of {@code server}. */
    void watch(HttpServer server) {
        timer = vertx.setPeriodic(tls.reloadInterval().toMillis(), id -> check(server));
    }

    /** Stops polling. */
    void stop() {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
    }

    private void check(HttpServer server) {
        if (!checking.compareAndSet(false, true)) {
            return; // the previous check is still running
        }
        fingerprint()
                .compose(now -> now.equals(loaded.get()) ? Future.succeededFuture() : reload(server, now))
                .onFailure(e -> LOG.warn("TLS reload of {} / {}{} failed, keeping the current files: {}",
                        tls.certFile(), tls.keyFile(), tls.clientAuth() ? " / " + tls.clientCaFile() : "",
                        e.toString()))
                .onComplete(done -> checking.set(false));
    }

    private Future<Void> reload(HttpServer server, String fingerprint) {
        return server.updateSSLOptions(sslOptions(tls), true).map(updated -> {
            loaded.set(fingerprint);
            LOG.info("TLS files reloaded: {}{}", tls.certFile(),
                    tls.clientAuth() ? ", client CA " + tls.clientCaFile() : "");
            return null;
        });
    }

    private Future<String> fingerprint() {
        Future<FileProps> cert = vertx.fileSystem().props(tls.certFile().toString());
        Future<FileProps> key = vertx.fileSystem().props(tls.keyFile().toString());
        Future<FileProps> ca = tls.clientAuth() ? vertx.fileSystem().props(tls.clientCaFile().toString())
                : Future.succeededFuture();
        return Future.all(cert, key, ca).map(all -> describe(cert.result()) + "|" + describe(key.result())
                + (ca.result() == null ? "" : "|" + describe(ca.result())));
    }

    private static String describe(FileProps p) {
        return p.lastModifiedTime() + ":" + p.size();
    }
}
