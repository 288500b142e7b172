package io.vgpu.gateway.core.draview;

import io.vgpu.state.dra.ResourceSliceCodec;
import io.vgpu.state.dra.SliceContent;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalLong;

import static io.vgpu.gateway.core.draview.DraJson.gpu;
import static io.vgpu.gateway.core.draview.DraJson.slice;
import static org.assertj.core.api.Assertions.assertThat;

/** The DRA view's folding rules: slices of this driver at their pool's newest generation, claims' consumption. */
class DraLedgerTest {

    private static final long GIB = 1024L * 1024L * 1024L;

    private static SliceContent content(String json) {
        return ResourceSliceCodec.decode(json).value().content();
    }

    private static DraClaim claim(String name, String pod, DraClaim.Result... results) {
        return new DraClaim("ns", name, pod == null ? List.of() : List.of(pod), List.of(results));
    }

    private static DraClaim.Result share(String node, String device, long memoryBytes, long cores, long slots) {
        return new DraClaim.Result(node, device, OptionalLong.of(memoryBytes), OptionalLong.of(cores),
                OptionalLong.of(slots));
    }

    @Test
    void sumsTheConsumedCapacityOfEveryClaimOnEachCard() {
        DraLedger ledger = new DraLedger();
        ledger.putSlice("s1", content(slice("s1", "gpu.vgpu.io", "n2", 1, gpu(0, "GPU-a", 81_920, 10),
                gpu(1, "GPU-b", 40_960, 10))));
        ledger.putClaim(claim("c1", "p1", share("n2", "gpu-0", 4 * GIB, 30, 100)));
        ledger.putClaim(claim("c2", "p2", share("n2", "gpu-0", 2 * GIB + 1, 20, 100)));

        DraSnapshot s = ledger.snapshot();
        assertThat(s.cards()).extracting(DraCard::uuid).containsExactly("GPU-a", "GPU-b");
        DraCard a = s.cards().get(0);
        assertThat(a.memoryMiB()).isEqualTo(81_920);
        assertThat(a.cores()).isEqualTo(100);
        assertThat(a.splitCount()).isEqualTo(10);
        assertThat(a.usedMemoryMiB()).as("bytes rounded up to MiB").isEqualTo(4096 + 2049);
        assertThat(a.usedCores()).isEqualTo(50);
        assertThat(a.usedSlots()).isEqualTo(200);
        assertThat(a.shares()).extracting(DraShare::claim).containsExactly("c1", "c2");
        assertThat(a.usage().used()).isEqualTo(2);
        assertThat(a.usage().count()).isEqualTo(10);
        assertThat(s.cards().get(1).usedMemoryMiB()).isZero();
        assertThat(s.cardMemorySizes()).containsExactly(40_960L, 81_920L);
    }

    @Test
    void aResultWithoutConsumedCapacityTakesTheWholeCard() {
        DraLedger ledger = new DraLedger();
        ledger.putSlice("s1", content(slice("s1", "gpu.vgpu.io", "n2", 1, gpu(0, "GPU-a", 81_920, 10))));
        ledger.putClaim(claim("whole", "p", new DraClaim.Result("n2", "gpu-0", OptionalLong.empty(),
                OptionalLong.empty(), OptionalLong.empty())));

        DraCard a = ledger.snapshot().cards().get(0);
        assertThat(a.usedMemoryMiB()).isEqualTo(81_920);
        assertThat(a.usedCores()).isEqualTo(100);
        assertThat(a.usedSlots()).isEqualTo(1000);
    }

    @Test
    void onlyTheNewestGenerationOfAPoolAndOnlyThisDriverCount() {
        DraLedger ledger = new DraLedger();
        // generation 1 published two GPUs, generation 2 (one GPU withdrawn) one: the withdrawn one is gone
        ledger.putSlice("old", content(slice("old", "gpu.vgpu.io", "n2", 1, gpu(0, "GPU-a", 16_384, 1),
                gpu(1, "GPU-withdrawn", 16_384, 1))));
        ledger.putSlice("new", content(slice("new", "gpu.vgpu.io", "n2", 2, gpu(0, "GPU-a", 16_384, 1))));
        ledger.putSlice("other", content(slice("other", "gpu.nvidia.com", "n3", 5, gpu(0, "GPU-x", 8_192, 1))));

        assertThat(ledger.snapshot().cards()).extracting(DraCard::uuid).containsExactly("GPU-a");

        ledger.removeSlice("new");
        assertThat(ledger.snapshot().cards()).extracting(DraCard::uuid).containsExactly("GPU-a", "GPU-withdrawn");
    }

    @Test
    void aDeallocatedOrDeletedClaimStopsCountingAndUnknownDevicesAreShownAsOrphans() {
        DraLedger ledger = new DraLedger();
        ledger.putSlice("s1", content(slice("s1", "gpu.vgpu.io", "n2", 1, gpu(0, "GPU-a", 81_920, 10))));
        ledger.putClaim(claim("c1", "p1", share("n2", "gpu-0", 4 * GIB, 30, 100)));
        ledger.putClaim(claim("lost", "p9", share("gone-node", "gpu-3", GIB, 0, 100)));
        assertThat(ledger.snapshot().cards().get(0).usedMemoryMiB()).isEqualTo(4096);
        assertThat(ledger.snapshot().orphans()).extracting(DraShare::node).containsExactly("gone-node");

        ledger.putClaim(claim("c1", "p1")); // the claim controller cleared status.allocation
        assertThat(ledger.snapshot().cards().get(0).usedMemoryMiB()).isZero();

        ledger.removeClaim("ns", "lost");
        assertThat(ledger.snapshot().orphans()).isEmpty();
    }

    @Test
    void aTaintedCardIsUnhealthy() {
        DraLedger ledger = new DraLedger();
        ledger.putSlice("s1", content(slice("s1", "gpu.vgpu.io", "n2", 1, gpu(0, "GPU-a", 81_920, 10, "NoSchedule"),
                gpu(1, "GPU-b", 81_920, 10, "None"))));
        assertThat(ledger.snapshot().cards()).extracting(DraCard::healthy).containsExactly(false, true);
    }
}
