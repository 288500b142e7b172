package io.vgpu.deviceplugin.grpc;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.streams.WriteStream;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.server.GrpcServerResponse;
import io.vertx.grpc.server.StatusException;
import io.vgpu.deviceplugin.core.allocate.AllocateResult;
import io.vgpu.deviceplugin.core.allocate.AllocationService;
import io.vgpu.deviceplugin.core.advertise.DeviceAdvertisement;
import io.vgpu.deviceplugin.core.allocate.FinishReport;
import io.vgpu.deviceplugin.core.pending.LockRelease;
import io.vgpu.deviceplugin.core.pending.LockReleaseResult;
import io.vgpu.deviceplugin.core.advertise.PhysicalDevice;
import io.vgpu.deviceplugin.core.advertise.PluginOptions;
import io.vgpu.deviceplugin.core.advertise.WatchStreamRule;
import io.vgpu.deviceplugin.devices.DeviceState;
import io.vgpu.deviceplugin.v1beta1.AllocateRequest;
import io.vgpu.deviceplugin.v1beta1.AllocateResponse;
import io.vgpu.deviceplugin.v1beta1.DevicePluginGrpcService;
import io.vgpu.deviceplugin.v1beta1.DevicePluginOptions;
import io.vgpu.deviceplugin.v1beta1.Empty;
import io.vgpu.deviceplugin.v1beta1.ListAndWatchResponse;
import io.vgpu.deviceplugin.v1beta1.PreStartContainerRequest;
import io.vgpu.deviceplugin.v1beta1.PreStartContainerResponse;
import io.vgpu.deviceplugin.v1beta1.PreferredAllocationRequest;
import io.vgpu.deviceplugin.v1beta1.PreferredAllocationResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The kubelet {@code DevicePlugin} service (v1beta1): decodes each call, asks one core service, encodes
 * the answer. Errors are mapped once, here: a rejected {@code Allocate} fails the RPC with status
 * UNKNOWN and the core's message (as HAMi's Go server returns a plain error), logged with the pod.
 *
 * <p>ListAndWatch sends the whole list on open and again after every health change of
 * {@link DeviceState}, following {@link WatchStreamRule}; {@link #closeStreams()} ends every open
 * stream with OK (plugin stop or restart).
 */
public final class DevicePluginEndpoint extends DevicePluginGrpcService {

    private static final Logger LOG = LoggerFactory.getLogger(DevicePluginEndpoint.class);

    private final AllocationService allocations;
    private final DeviceState devices;
    private final int splitCount;
    private final boolean numaTopology;
    private final Set<DeviceStream> streams = ConcurrentHashMap.newKeySet();

    /**
     * @param splitCount   fake devices per GPU
     * @param numaTopology advertise NUMA nodes
     */
    public DevicePluginEndpoint(AllocationService allocations, DeviceState devices, int splitCount, boolean numaTopology) {
        this.allocations = Objects.requireNonNull(allocations, "allocations");
        this.devices = Objects.requireNonNull(devices, "devices");
        this.splitCount = splitCount;
        this.numaTopology = numaTopology;
    }

    @Override
    public Future<DevicePluginOptions> getDevicePluginOptions(Empty request) {
        return Future.succeededFuture(ProtoMapping.options(PluginOptions.rpcAnswer()));
    }

    @Override
    public Future<PreferredAllocationResponse> getPreferredAllocation(PreferredAllocationRequest request) {
        return Future.fromCompletionStage(allocations.preferred(ProtoMapping.preferredRequests(request)), Vertx.currentContext())
                .map(ProtoMapping::preferredResponse);
    }

    @Override
    public Future<AllocateResponse> allocate(AllocateRequest request) {
        List<List<String>> ids = ProtoMapping.requests(request);
        return Future.fromCompletionStage(allocations.allocate(ids), Vertx.currentContext()).compose(result -> {
            if (result instanceof AllocateResult.Allocated ok) {
                LOG.info("allocated {} for pod {}{}", ids, ok.pod() == null ? "<none: MIG devices as they are>" : ok.pod(),
                        describe(ok.finish()));
                return Future.succeededFuture(ProtoMapping.allocateResponse(ok.responses()));
            }
            AllocateResult.Rejected rejected = (AllocateResult.Rejected) result;
            LOG.warn("allocate {} failed for pod {}: {}{}", ids, rejected.pod() == null ? "<none found>" : rejected.pod(),
                    rejected.message(), describe(rejected.finish()));
            return Future.failedFuture(new StatusException(GrpcStatus.UNKNOWN, rejected.message()));
        });
    }

    @Override
    public Future<PreStartContainerResponse> preStartContainer(PreStartContainerRequest request) {
        return Future.succeededFuture(PreStartContainerResponse.getDefaultInstance());
    }

    @Override
    protected void listAndWatch(Empty request, WriteStream<ListAndWatchResponse> response) {
        DeviceStream stream = new DeviceStream(response, Vertx.currentContext());
        streams.add(stream);
        stream.open();
    }

    /** Ends every open ListAndWatch stream with status OK. Call on the server's context. */
    public void closeStreams() {
        List.copyOf(streams).forEach(DeviceStream::endOk);
    }

    /** The number of open ListAndWatch streams. */
    public int openStreams() {
        return streams.size();
    }

    private static String describe(FinishReport finish) {
        if (finish == null) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        if (!finish.bindPhase().isEmpty()) {
            out.append("; bind-phase=").append(finish.bindPhase());
        }
        if (!finish.patchError().isEmpty()) {
            out.append(" (patch failed: ").append(finish.patchError()).append(')');
        }
        if (finish.lock() instanceof LockReleaseResult.Removed) {
            out.append("; node lock released");
        } else if (finish.lock() instanceof LockReleaseResult.Left left) {
            out.append("; node lock left: ").append(left.reason() == LockRelease.Decision.NOT_OWNER ? "held by another pod" : "none");
        } else if (finish.lock() instanceof LockReleaseResult.Failed failed) {
            out.append("; node lock NOT released: ").append(failed.message());
        }
        return out.toString();
    }

    /** One ListAndWatch stream; all its methods run on the server's context. */
    private final class DeviceStream {
        private final WriteStream<ListAndWatchResponse> response;
        private final Context context;
        private AutoCloseable subscription;
        private int sends;
        private boolean closed;

        DeviceStream(WriteStream<ListAndWatchResponse> response, Context context) {
            this.response = response;
            this.context = context;
        }

        void open() {
            if (response instanceof GrpcServerResponse<?, ?> grpc) {
                grpc.exceptionHandler(error -> {
                    LOG.debug("ListAndWatch stream ended by kubelet: {}", error.toString());
                    detach();
                });
            }
            subscription = devices.subscribe(list -> context.runOnContext(v -> send(list)));
            send(devices.devices());
        }

        void send(List<PhysicalDevice> physical) {
            if (closed) {
                return;
            }
            int number = ++sends;
            response.write(ProtoMapping.devices(DeviceAdvertisement.advertise(physical, splitCount, numaTopology)))
                    .onComplete(ar -> {
                        switch (WatchStreamRule.afterSend(number, ar.succeeded())) {
                            case KEEP_OPEN -> { }
                            case FAIL -> fail(ar.cause());
                            case END_OK -> endOk();
                        }
                    });
        }

        void endOk() {
            if (!closed) {
                detach();
                response.end();
            }
        }

        private void fail(Throwable cause) {
            if (!closed) {
                detach();
                if (response instanceof GrpcServerResponse<?, ?> grpc) {
                    grpc.fail(new StatusException(GrpcStatus.UNKNOWN, String.valueOf(cause.getMessage())));
                } else {
                    response.end();
                }
            }
        }

        private void detach() {
            closed = true;
            streams.remove(this);
            try {
                if (subscription != null) {
                    subscription.close();
                }
            } catch (Exception impossible) {
                LOG.debug("unsubscribe failed", impossible);
            }
        }
    }
}
