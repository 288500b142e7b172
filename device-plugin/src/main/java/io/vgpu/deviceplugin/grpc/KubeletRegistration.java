package io.vgpu.deviceplugin.grpc;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.SocketAddress;
import io.vertx.grpc.client.GrpcClient;
import io.vgpu.deviceplugin.core.advertise.PluginOptions;
import io.vgpu.deviceplugin.v1beta1.RegisterRequest;
import io.vgpu.deviceplugin.v1beta1.RegistrationGrpcClient;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Registers the plugin with kubelet ({@code Registration/Register} on {@code kubelet.sock}, spec
 * §1.3): version {@code v1beta1}, the plugin socket's file name as endpoint, the resource name, and
 * the node-config preferred-allocation flag in the options. One short-lived gRPC client per call,
 * with a timeout (HAMi dials with 5 s).
 */
public final class KubeletRegistration {

    /** The device-plugin API version kubelet expects. */
    public static final String API_VERSION = "v1beta1";

    private final Vertx vertx;
    private final Path kubeletSocket;
    private final Duration timeout;
    private final RegisterRequest request;

    /**
     * @param pluginSocket the plugin's own socket (its file name is the endpoint)
     * @param resourceName e.g. {@code nvidia.com/gpu}
     * @param options      the registration options ({@link PluginOptions#forRegistration})
     */
    public KubeletRegistration(Vertx vertx, Path kubeletSocket, Duration timeout, Path pluginSocket, String resourceName,
                               PluginOptions options) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.kubeletSocket = Objects.requireNonNull(kubeletSocket, "kubeletSocket");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.request = RegisterRequest.newBuilder()
                .setVersion(API_VERSION)
                .setEndpoint(pluginSocket.getFileName().toString())
                .setResourceName(resourceName)
                .setOptions(ProtoMapping.options(options))
                .build();
    }

    /** The request sent to kubelet. */
    public RegisterRequest request() {
        return request;
    }

    /** Registers once; fails with kubelet's error or a timeout. */
    public Future<Void> register() {
        GrpcClient client = GrpcClient.client(vertx, new HttpClientOptions()
                .setProtocolVersion(HttpVersion.HTTP_2).setHttp2ClearTextUpgrade(false));
        return RegistrationGrpcClient.create(client, SocketAddress.domainSocketAddress(kubeletSocket.toString()))
                .register(request)
                .timeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .<Void>mapEmpty()
                .recover(e -> Future.failedFuture(new IllegalStateException(
                        "registration with kubelet at " + kubeletSocket + " failed: " + e.getMessage(), e)))
                .eventually(client::close);
    }
}
