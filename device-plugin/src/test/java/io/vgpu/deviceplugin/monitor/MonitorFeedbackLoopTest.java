package io.vgpu.deviceplugin.monitor;

import io.vgpu.testsupport.ManualClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.vgpu.deviceplugin.core.monitor.InMemoryPodDirectory;
import io.vgpu.deviceplugin.core.monitor.MonitoredPod;
import io.vgpu.deviceplugin.core.monitor.PodDirectory;
import io.vgpu.deviceplugin.monitor.FeedbackLoop.TickReport;
import io.vgpu.deviceplugin.monitor.FeedbackLoop.TickReport.Outcome;

import static org.assertj.core.api.Assertions.assertThat;

/** Feedback ticks over real region files: scan, then HAMi's Observe writing into the mapped files. */
class MonitorFeedbackLoopTest {

    private static final String NODE = "node-a";
    private static final String GPU = "GPU-12345678-1234-1234-1234-123456789012";

    @TempDir
    Path hook;
    private Path containers;
    private MonitorConfig config;
    private InMemoryPodDirectory pods;
    private ManualClock clock;

    @BeforeEach
    void setUp() throws IOException {
        containers = Files.createDirectories(hook.resolve("vgpu/containers"));
        config = MonitorConfig.defaults(NODE).withHookPath(hook).withMigApplyLock(hook.resolve("hami-mig-apply.lock"));
        pods = new InMemoryPodDirectory();
        clock = new ManualClock(Instant.now());
    }

    private void podOnNode(String uid) {
        pods.put(new MonitoredPod(uid, "ns", "p-" + uid, NODE, Map.of(), Map.of(), List.of(), List.of("c")));
    }

    private FeedbackLoop loop(PodDirectory directory) {
        return new FeedbackLoop(config, new ContainerLister(config.containersDirectory(), config.resyncInterval(),
                clock), directory, new ClaimRegionLister(config.claimsDirectory()));
    }

    @Test
    void aHigherPriorityContainerBlocksALowerOneSharingItsGpu() throws IOException {
        podOnNode("hi");
        podOnNode("lo");
        Path hi = MonitorRegionFiles.v1().uuid(GPU).priority(0).recentKernel(2).utilizationSwitch(1)
                .writeTo(containers, "hi", "c");
        Path lo = MonitorRegionFiles.v1().uuid(GPU).priority(1).recentKernel(2).utilizationSwitch(0)
                .writeTo(containers, "lo", "c");

        TickReport report = loop(pods).tick();

        assertThat(report.outcome()).isEqualTo(Outcome.OBSERVED);
        assertThat(report.scan().added()).containsExactlyInAnyOrder("hi_c", "lo_c");
        assertThat(report.observed().blocked()).isEqualTo(1);
        assertThat(MonitorRegionFiles.recentKernel(hi)).isEqualTo(1);
        assertThat(MonitorRegionFiles.utilizationSwitch(hi)).isZero();
        assertThat(MonitorRegionFiles.recentKernel(lo)).isEqualTo(-1);
        assertThat(MonitorRegionFiles.utilizationSwitch(lo)).isEqualTo(1);
    }

    @Test
    void aRegionOfAPodNotOnThisNodeIsNotSteered() throws IOException {
        Path stray = MonitorRegionFiles.v1().uuid(GPU).recentKernel(2).writeTo(containers, "unknown", "c");

        TickReport report = loop(pods).tick();

        assertThat(report.outcome()).isEqualTo(Outcome.OBSERVED);
        assertThat(report.observed().containers()).isZero();
        assertThat(MonitorRegionFiles.recentKernel(stray)).isEqualTo(2);
        assertThat(stray).exists();
    }

    @Test
    void pausesWhileTheMigApplyLockExists() throws IOException {
        podOnNode("a");
        Path region = MonitorRegionFiles.v1().uuid(GPU).recentKernel(2).writeTo(containers, "a", "c");
        Files.createFile(config.migApplyLock());

        TickReport paused = loop(pods).tick();
        Files.delete(config.migApplyLock());

        assertThat(paused.outcome()).isEqualTo(Outcome.PAUSED);
        assertThat(MonitorRegionFiles.recentKernel(region)).isEqualTo(2);
    }

    @Test
    void aFailedPodLookupSkipsObserve() throws IOException {
        podOnNode("a");
        Path region = MonitorRegionFiles.v1().uuid(GPU).recentKernel(2).writeTo(containers, "a", "c");
        pods.failWith(new IllegalStateException("watch closed"));

        TickReport report = loop(pods).tick();

        assertThat(report.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(report.message()).contains("failed to list pods").contains("watch closed");
        assertThat(MonitorRegionFiles.recentKernel(region)).isEqualTo(2);
    }

    @Test
    void aSlowPodLookupTimesOut() {
        config = new MonitorConfig(config.hookPath(), NODE, false, config.bindHost(), config.port(),
                config.scanInterval(), config.resyncInterval(), Duration.ofMillis(50), config.migApplyLock(),
                config.buildInfo());

        TickReport report = loop(new PendingPods(new CompletableFuture<>())).tick();

        assertThat(report.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(report.message()).contains("failed to list pods").contains("Timeout");
    }

    @Test
    void aMissingContainersDirectorySkipsObserve() throws IOException {
        Files.delete(containers);

        TickReport report = loop(pods).tick();

        assertThat(report.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(report.message()).contains("failed to update container list").contains("does not exist");
    }

    @Test
    void ticksNeverOverlap() throws Exception {
        CompletableFuture<List<MonitoredPod>> answer = new CompletableFuture<>();
        PendingPods slow = new PendingPods(answer);
        FeedbackLoop loop = loop(slow);
        ExecutorService worker = Executors.newSingleThreadExecutor();
        try {
            Future<TickReport> first = worker.submit(loop::tick);
            assertThat(slow.asked.await(5, TimeUnit.SECONDS)).isTrue();

            TickReport second = loop.tick();
            answer.complete(List.of());

            assertThat(second.outcome()).isEqualTo(Outcome.BUSY);
            assertThat(first.get(5, TimeUnit.SECONDS).outcome()).isEqualTo(Outcome.OBSERVED);
        } finally {
            worker.shutdownNow();
        }
    }

    /** A pod directory whose node lookup answers when the test says so. */
    private static final class PendingPods implements PodDirectory {
        private final CompletableFuture<List<MonitoredPod>> answer;
        private final CountDownLatch asked = new CountDownLatch(1);

        PendingPods(CompletableFuture<List<MonitoredPod>> answer) {
            this.answer = answer;
        }

        @Override
        public CompletionStage<List<MonitoredPod>> podsOnNode(String node) {
            asked.countDown();
            return answer;
        }

        @Override
        public CompletionStage<List<MonitoredPod>> podsAssignedTo(String node) {
            return answer;
        }
    }
}
