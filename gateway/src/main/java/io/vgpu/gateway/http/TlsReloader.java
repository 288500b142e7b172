package io.vgpu.gateway.http;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.file.FileProps;
import io.vertx.core.http.HttpServer;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.ServerSSLOptions;
import io.vgpu.gateway.GatewayConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Reloads the API listener's certificate when its files change (controller-runtime's certwatcher,
 * spec §2.1). Every {@code reloadInterval} it reads the modification time and size of both files
 * (asynchronously; symlinks followed, so a Secret volume's atomic {@code ..data} swap counts as a
 * change); on a change it hands the new files to {@link HttpServer#updateSSLOptions} (forced, since
 * the paths are unchanged). New connections get the new certificate; open ones keep theirs. A failed
 * reload (e.g. a half-written pair) is logged and retried at the next tick.
 */
final class TlsReloader {

    private static final Logger LOG = LoggerFactory.getLogger(TlsReloader.class);

    private final Vertx vertx;
    private final GatewayConfig.Tls tls;
    private final AtomicReference<String> loaded = new AtomicReference<>();
    private final AtomicBoolean checking = new AtomicBoolean();
    private volatile long timer = -1;

    TlsReloader(Vertx vertx, GatewayConfig.Tls tls) {
        this.vertx = vertx;
        this.tls = tls;
    }

    /** The SSL options of the current files. */
    static ServerSSLOptions sslOptions(GatewayConfig.Tls tls) {
        return new ServerSSLOptions().setKeyCertOptions(keyCert(tls));
    }

    /** The key/cert options of the files. */
    static PemKeyCertOptions keyCert(GatewayConfig.Tls tls) {
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
                .onFailure(e -> LOG.warn("TLS reload of {} / {} failed, keeping the current certificate: {}",
                        tls.certFile(), tls.keyFile(), e.toString()))
                .onComplete(done -> checking.set(false));
    }

    private Future<Void> reload(HttpServer server, String fingerprint) {
        return server.updateSSLOptions(sslOptions(tls), true).map(updated -> {
            loaded.set(fingerprint);
            LOG.info("TLS certificate reloaded from {}", tls.certFile());
            return null;
        });
    }

    private Future<String> fingerprint() {
        Future<FileProps> cert = vertx.fileSystem().props(tls.certFile().toString());
        Future<FileProps> key = vertx.fileSystem().props(tls.keyFile().toString());
        return Future.all(cert, key).map(both -> describe(cert.result()) + "|" + describe(key.result()));
    }

    private static String describe(FileProps p) {
        return p.lastModifiedTime() + ":" + p.size();
    }
}
