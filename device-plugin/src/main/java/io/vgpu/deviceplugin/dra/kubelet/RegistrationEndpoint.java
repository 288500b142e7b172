package io.vgpu.deviceplugin.dra.kubelet;

import io.vertx.core.Future;
import io.vgpu.pluginregistration.v1.InfoRequest;
import io.vgpu.pluginregistration.v1.PluginInfo;
import io.vgpu.pluginregistration.v1.RegistrationGrpcService;
import io.vgpu.pluginregistration.v1.RegistrationStatus;
import io.vgpu.pluginregistration.v1.RegistrationStatusResponse;
import io.vgpu.state.dra.DraNames;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.List;

/**
 * The kubelet plugin watcher's {@code pluginregistration.Registration} service, served on the
 * registration socket (spec/dra-spec.md §4.2): {@code GetInfo} describes the driver
 * ({@code type DRAPlugin}, the driver name, the absolute {@code dra.sock} path, the services in the
 * order the kubelet should try them: {@code v1.DRAPlugin} first); {@code NotifyRegistrationStatus}
 * is logged (a refusal at WARN with the kubelet's reason) and answered, never failing the plugin.
 */
final class RegistrationEndpoint extends RegistrationGrpcService {

    private static final Logger LOG = LoggerFactory.getLogger(RegistrationEndpoint.class);

    /** {@code PluginInfo.type} of a DRA driver. */
    static final String TYPE = "DRAPlugin";
    /** The services on {@code dra.sock}, preferred first. */
    static final List<String> SUPPORTED_VERSIONS = List.of(DraV1Endpoint.VERSION, DraV1beta1Endpoint.VERSION);

    private final PluginInfo info;

    /** @param draSocket the DRA service's socket (made absolute: the kubelet dials exactly this path) */
    RegistrationEndpoint(Path draSocket) {
        this.info = PluginInfo.newBuilder().setType(TYPE).setName(DraNames.DRIVER)
                .setEndpoint(draSocket.toAbsolutePath().toString()).addAllSupportedVersions(SUPPORTED_VERSIONS).build();
    }

    @Override
    public Future<PluginInfo> getInfo(InfoRequest request) {
        return Future.succeededFuture(info);
    }

    @Override
    public Future<RegistrationStatusResponse> notifyRegistrationStatus(RegistrationStatus status) {
        if (status.getPluginRegistered()) {
            LOG.info("the kubelet registered DRA driver {} at {}", DraNames.DRIVER, info.getEndpoint());
        } else {
            LOG.warn("the kubelet refused to register DRA driver {}: {}", DraNames.DRIVER,
                    status.getError().isEmpty() ? "(no reason given)" : status.getError());
        }
        return Future.succeededFuture(RegistrationStatusResponse.getDefaultInstance());
    }
}
