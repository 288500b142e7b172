package io.vgpu.gateway.core.accounting;

import io.vgpu.gateway.core.Container;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.QuotaObservation;
import io.vgpu.gateway.core.quota.QuotaBook;
import io.vgpu.state.codec.HamiAnnotations;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class AccountingFeedTest {

    private final QuotaBook quotas = new QuotaBook("nvidia.com/gpumem", "nvidia.com/gpucores", 1);
    private final PodTracker tracker = new PodTracker(quotas);
    private final AccountingFeed feed = new AccountingFeed(tracker, quotas);

    @Test
    void anAllocatedPodIsTrackedAndChargedUntilDeleted() {
        ObservedPod pod = pod("u1", Map.of(HamiAnnotations.VGPU_NODE, "n1",
                HamiAnnotations.DEVICES_ALLOCATED, "GPU-0,NVIDIA,3000,30:;"), "Running");

        feed.podAdded(pod);
        assertThat(tracker.get("u1").node()).isEqualTo("n1");
        assertThat(quotas.entry("ns", "nvidia.com/gpumem").used()).isEqualTo(3000);

        feed.podDeleted(pod);
        assertThat(tracker.get("u1")).isNull();
        assertThat(quotas.entry("ns", "nvidia.com/gpumem").used()).isZero();
    }

    @Test
    void aFinishedPodIsForgottenOnUpdate() {
        Map<String, String> allocated = Map.of(HamiAnnotations.VGPU_NODE, "n1",
                HamiAnnotations.DEVICES_ALLOCATED, "GPU-0,NVIDIA,3000,30:;");
        feed.podAdded(pod("u1", allocated, "Running"));

        feed.podUpdated(pod("u1", allocated, "Succeeded"));

        assertThat(tracker.get("u1")).isNull();
    }

    @Test
    void aPodWithoutAnAllocationIsNotTracked() {
        feed.podAdded(pod("u1", Map.of(), "Pending"));

        assertThat(tracker.all()).isEmpty();
    }

    @Test
    void aPodWithTheNodeButNoDevicesAnnotationIsTrackedWithoutDevicesWhileItRunsOrTerminates() {
        // HAMi reads the missing hami.io/vgpu-devices-allocated as "": the pod is cached with no devices
        Map<String, String> nodeOnly = Map.of(HamiAnnotations.VGPU_NODE, "n1");
        feed.podAdded(pod("u1", nodeOnly, "Running"));

        assertThat(tracker.get("u1").node()).isEqualTo("n1");
        assertThat(tracker.grantsOn("n1")).containsExactly(List.of());

        feed.podUpdated(new ObservedPod(pod("u1", nodeOnly, "Running").spec(), "Running", true, false, "2"));
        assertThat(tracker.get("u1")).as("terminating: still cached").isNotNull();

        feed.podUpdated(pod("u1", nodeOnly, "Failed"));
        assertThat(tracker.get("u1")).isNull();
        feed.podAdded(pod("u2", nodeOnly, "Running"));
        feed.podDeleted(pod("u2", nodeOnly, "Running"));
        assertThat(tracker.all()).isEmpty();
    }

    @Test
    void quotaLimitsAreSetAndAnUpdateClearsTheLimitsItDropped() {
        QuotaObservation both = new QuotaObservation("ns", "q", Map.of("nvidia.com/gpumem", 1000L, "nvidia.com/gpucores", 50L));
        QuotaObservation memOnly = new QuotaObservation("ns", "q", Map.of("nvidia.com/gpumem", 2000L));

        feed.quotaChanged(null, both);
        assertThat(quotas.fits("ns", 0, 60)).isFalse();

        feed.quotaChanged(both, memOnly);
        assertThat(quotas.fits("ns", 0, 60)).isTrue();
        assertThat(quotas.entry("ns", "nvidia.com/gpumem").limit()).isEqualTo(2000);
        assertThat(quotas.fits("ns", 2500, 0)).isFalse();
    }

    @Test
    void aDeletedQuotaStopsBeingEnforced() {
        QuotaObservation quota = new QuotaObservation("ns", "q", Map.of("nvidia.com/gpumem", 0L));
        feed.quotaChanged(null, quota);
        assertThat(quotas.fits("ns", 1, 0)).isFalse();

        feed.quotaDeleted(quota);

        assertThat(quotas.fits("ns", 1, 0)).isTrue();
    }

    private static ObservedPod pod(String uid, Map<String, String> annotations, String phase) {
        PodSpec spec = new PodSpec("p-" + uid, "ns", uid, "hami-scheduler", "", null, annotations, Map.of(), List.of(),
                List.of(new Container("c", Map.of("nvidia.com/gpu", "1"), Map.of(), false, List.of())));
        return new ObservedPod(spec, phase, false, false, "1");
    }
}
