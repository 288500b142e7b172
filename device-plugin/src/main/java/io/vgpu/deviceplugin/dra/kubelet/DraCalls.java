package io.vgpu.deviceplugin.dra.kubelet;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vgpu.deviceplugin.dra.prepare.ClaimRef;
import io.vgpu.deviceplugin.dra.prepare.ClaimResult;
import io.vgpu.deviceplugin.dra.prepare.KubeletDevice;
import io.vgpu.deviceplugin.dra.prepare.PrepareService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The one handler behind both kubelet DRA services ({@code v1.DRAPlugin} and {@code v1beta1.DRAPlugin}):
 * calls the prepare service and logs every claim's outcome once, here, with the API version that
 * asked. The per-version endpoints only translate protobuf. Answers resume on the caller's context.
 */
final class DraCalls {

    private static final Logger LOG = LoggerFactory.getLogger(DraCalls.class);

    private final PrepareService service;

    DraCalls(PrepareService service) {
        this.service = Objects.requireNonNull(service, "service");
    }

    Future<Map<String, ClaimResult>> prepare(List<ClaimRef> claims, String api) {
        return Future.fromCompletionStage(service.prepare(claims), Vertx.currentContext()).onSuccess(results -> {
            for (ClaimRef ref : claims) {
                ClaimResult r = results.get(ref.uid());
                if (r instanceof ClaimResult.Prepared ok) {
                    LOG.info("{} NodePrepareResources: claim {} ({}) prepared: {}", api, ref, ref.uid(), describe(ok.devices()));
                } else if (r instanceof ClaimResult.Failed failed) {
                    LOG.warn("{} NodePrepareResources: claim {} ({}) failed: {}", api, ref, ref.uid(), failed.error());
                }
            }
        });
    }

    Future<Map<String, String>> unprepare(List<ClaimRef> claims, String api) {
        return Future.fromCompletionStage(service.unprepare(claims), Vertx.currentContext()).onSuccess(results ->
                claims.forEach(ref -> {
                    String error = results.getOrDefault(ref.uid(), "");
                    if (error.isEmpty()) {
                        LOG.info("{} NodeUnprepareResources: claim {} ({}) unprepared", api, ref, ref.uid());
                    } else {
                        LOG.warn("{} NodeUnprepareResources: claim {} ({}) failed: {}", api, ref, ref.uid(), error);
                    }
                }));
    }

    private static String describe(List<KubeletDevice> devices) {
        if (devices.isEmpty()) {
            return "no device of this driver";
        }
        return devices.stream().map(d -> d.requestNames() + " " + d.deviceName() + d.shareId().map(s -> " share " + s).orElse(""))
                .collect(Collectors.joining(", "));
    }
}
