package io.vgpu.deviceplugin;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Several kubelet plugins that start, restart and stop together (the {@code mixed} static MIG strategy:
 * {@code nvidia.com/gpu} plus one {@code nvidia.com/mig-<profile>} per profile), so that
 * {@link NodeAgent} redeploys them as one after a kubelet restart. Starts them in order; when one fails
 * the ones started are undeployed again.
 */
final class PluginGroupVerticle extends VerticleBase {

    private final List<Supplier<DevicePluginVerticle>> plugins;
    private final List<String> deployed = new ArrayList<>();

    PluginGroupVerticle(List<Supplier<DevicePluginVerticle>> plugins) {
        this.plugins = List.copyOf(plugins);
    }

    @Override
    public Future<?> start() {
        Future<Void> chain = Future.succeededFuture();
        for (Supplier<DevicePluginVerticle> plugin : plugins) {
            chain = chain.compose(v -> vertx.deployVerticle(plugin.get()).map(id -> {
                deployed.add(id);
                return null;
            }));
        }
        return chain.recover(error -> stop().transform(ignored -> Future.failedFuture(error)));
    }

    @Override
    public Future<?> stop() {
        List<Future<Void>> undeploys = new ArrayList<>();
        deployed.forEach(id -> undeploys.add(vertx.undeploy(id).recover(e -> Future.succeededFuture())));
        deployed.clear();
        return Future.join(undeploys);
    }
}
