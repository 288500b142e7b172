package io.vgpu.deviceplugin.monitor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;

import io.vgpu.deviceplugin.core.monitor.InMemoryPodDirectory;
import io.vgpu.deviceplugin.core.monitor.MonitoredPod;
import io.vgpu.hamicore.FakeNvml;
import io.vgpu.hamicore.GpuInfo;

import static org.assertj.core.api.Assertions.assertThat;

/** The verticle over HTTP: a real server on a free port, region files on disk, an in-memory NVML. */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MonitorVerticleTest {

    private static final String NODE = "node-a";
    private static final String UID = "0b6f4a8e-4c1d-4f0a-9a0e-000000000001";
    private static final String GPU = "GPU-12345678-1234-1234-1234-123456789012";

    @TempDir
    Path hook;
    private Path region;
    private MonitorVerticle verticle;
    private HttpClient client;

    @BeforeEach
    void deploy(Vertx vertx, VertxTestContext ctx) throws IOException {
        region = MonitorRegionFiles.v1().uuid(GPU).process(8000, 1000, 0, 300, 42).recentKernel(2)
                .utilizationSwitch(1).writeTo(Files.createDirectories(hook.resolve("vgpu/containers")), UID, "worker");
        InMemoryPodDirectory pods = new InMemoryPodDirectory().put(new MonitoredPod(UID, "team-a", "trainer-0", NODE,
                Map.of(MonitoredPod.ASSIGNED_NODE_LABEL, NODE), Map.of(), List.of(), List.of("worker")));
        MonitorConfig config = MonitorConfig.defaults(NODE).withHookPath(hook).withListen("127.0.0.1", 0)
                .withScanInterval(Duration.ofMillis(100)).withMigApplyLock(hook.resolve("mig.lock"));
        FakeNvml nvml = FakeNvml.withGpus(new GpuInfo(0, GPU, "Tesla T4", 16L << 30, 4096, "", 0, false));
        verticle = VgpuMonitor.create(config, Optional.of(nvml), pods, Clock.systemUTC()).verticle();
        client = vertx.createHttpClient();
        vertx.deployVerticle(verticle).onComplete(ctx.succeedingThenComplete());
    }

    @Test
    void servesTheScrapeAfterTheFirstTickTrackedTheRegion(Vertx vertx, VertxTestContext ctx) {
        // the first tick runs right after start; poll until it has tracked the region and steered it
        vertx.setPeriodic(50, id -> get("/metrics").onComplete(ctx.succeeding(response -> {
            if (!response.body().contains("hami_vgpu_memory_used_bytes") || switchOf(region) != 0) {
                return;
            }
            vertx.cancelTimer(id);
            ctx.verify(() -> {
                assertThat(response.status()).isEqualTo(200);
                assertThat(response.contentType()).isEqualTo(MonitorVerticle.CONTENT_TYPE);
                assertThat(response.body())
                        .contains("hami_vgpu_memory_used_bytes{container=\"worker\",device_uuid=\"" + GPU
                                + "\",namespace=\"team-a\",pod=\"trainer-0\",vdevice_index=\"0\",zone=\"vGPU\"} 8000.0")
                        .contains("hami_host_gpu_memory_used_bytes{device_index=\"0\",device_type=\"NVIDIA-Tesla T4\","
                                + "device_uuid=\"" + GPU + "\",node=\"node-a\",zone=\"vGPU\"} 4096.0")
                        .contains("# TYPE hami_build_info gauge");
                // the feedback loop wrote the region: alone on its GPU, so throttling was switched off
                assertThat(MonitorRegionFiles.recentKernel(region)).isLessThan(2);
            });
            ctx.completeNow();
        })));
    }

    @Test
    void otherPathsAreNotFound(VertxTestContext ctx) {
        get("/nope").onComplete(ctx.succeeding(response -> ctx.verify(() -> {
            assertThat(response.status()).isEqualTo(404);
            ctx.completeNow();
        })));
    }

    @Test
    void undeployStopsTheServer(Vertx vertx, VertxTestContext ctx) {
        int port = verticle.actualPort();
        HttpClient fresh = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(false));
        vertx.undeploy(vertx.deploymentIDs().iterator().next())
                .compose(v -> fresh.request(HttpMethod.GET, port, "127.0.0.1", "/metrics"))
                .compose(req -> req.send())
                .compose(resp -> resp.body())
                .onComplete(ar -> ctx.verify(() -> {
                    // refused, as a rule; the freed port may also have been taken by another process on the machine
                    // meanwhile (parallel builds), which then must not be our monitor
                    if (ar.succeeded()) {
                        assertThat(ar.result().toString()).doesNotContain("hami_build_info");
                    }
                    ctx.completeNow();
                }));
    }

    private static int switchOf(Path file) {
        try {
            return MonitorRegionFiles.utilizationSwitch(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private record Response(int status, String contentType, String body) {
    }

    private Future<Response> get(String path) {
        return client.request(HttpMethod.GET, verticle.actualPort(), "127.0.0.1", path)
                .compose(req -> req.send())
                .compose(resp -> resp.body().map(body -> response(resp, body)));
    }

    private static Response response(HttpClientResponse resp, Buffer body) {
        return new Response(resp.statusCode(), resp.getHeader("Content-Type"), body.toString());
    }
}
