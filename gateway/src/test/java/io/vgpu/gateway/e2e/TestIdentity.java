package io.vgpu.gateway.e2e;

import io.vertx.core.net.SelfSignedCertificate;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * A self-signed certificate and its key as PEM files (its own trust anchor: put {@link #cert()} in a CA file to
 * trust it), and the {@link SSLContext} of a client that presents it and trusts one server certificate.
 *
 * @param cert PEM certificate
 * @param key  PEM PKCS#8 RSA private key
 */
record TestIdentity(Path cert, Path key) {

    /** A fresh identity whose subject is {@code CN=<commonName>}, written into {@code dir}. */
    static TestIdentity create(String commonName, Path dir) {
        SelfSignedCertificate generated = SelfSignedCertificate.create(commonName);
        try {
            Path cert = Files.copy(Path.of(generated.certificatePath()), dir.resolve(commonName + ".crt"));
            Path key = Files.copy(Path.of(generated.privateKeyPath()), dir.resolve(commonName + ".key"));
            return new TestIdentity(cert, key);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            generated.delete();
        }
    }

    /**
     * A client context that presents {@code client} (none when null) and accepts exactly the certificate of
     * {@code server}, pinned, whatever host name it was dialled by (the test dials 127.0.0.1).
     */
    static SSLContext clientContext(TestIdentity client, TestIdentity server) {
        try {
            X509Certificate pinned = (X509Certificate) certificate(server.cert());
            KeyManager[] keys = null;
            if (client != null) {
                KeyStore identity = KeyStore.getInstance("PKCS12");
                identity.load(null, null);
                char[] password = "test".toCharArray();
                identity.setKeyEntry("client", privateKey(client.key()), password,
                        new Certificate[] {certificate(client.cert())});
                KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(identity, password);
                keys = kmf.getKeyManagers();
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys, new TrustManager[] {new Pinned(pinned)}, null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot build the test TLS context", e);
        }
    }

    /** Trusts one server certificate, compared byte for byte; no host name check. */
    private static final class Pinned extends X509ExtendedTrustManager {

        private final X509Certificate server;

        Pinned(X509Certificate server) {
            this.server = server;
        }

        private void check(X509Certificate[] chain) throws CertificateException {
            if (chain == null || chain.length == 0 || !chain[0].equals(server)) {
                throw new CertificateException("not the gateway's certificate");
            }
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            check(chain);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            check(chain);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            check(chain);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            throw new CertificateException("a client context");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            throw new CertificateException("a client context");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw new CertificateException("a client context");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[] {server};
        }
    }

    private static Certificate certificate(Path pem) throws IOException, GeneralSecurityException {
        return CertificateFactory.getInstance("X.509").generateCertificate(
                new ByteArrayInputStream(Files.readAllBytes(pem)));
    }

    private static PrivateKey privateKey(Path pem) throws IOException, GeneralSecurityException {
        String base64 = Files.readString(pem).replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
    }
}
