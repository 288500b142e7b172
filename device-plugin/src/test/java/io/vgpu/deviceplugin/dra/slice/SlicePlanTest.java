package io.vgpu.deviceplugin.dra.slice;

import io.vgpu.state.codec.Decoded;
import io.vgpu.state.dra.SliceBuilder;
import io.vgpu.state.dra.SliceContent;
import io.vgpu.state.dra.SliceGpu;
import io.vgpu.state.dra.SliceInput;
import io.vgpu.state.dra.SliceObject;
import io.vgpu.state.dra.SliceSettings;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The publication plan's rules: adopt, write only on change, bump the generation only on change, one slice per node. */
class SlicePlanTest {

    private static final String NAME = "n-gpu.vgpu.io";
    private static final SliceObject.NodeOwner OWNER = new SliceObject.NodeOwner("n", "uid-1");
    private static final SliceContent TWO = content(2);
    private static final SliceContent ONE = content(1);

    private static SliceContent content(int gpus) {
        List<SliceGpu> list = new ArrayList<>();
        for (int i = 0; i < gpus; i++) {
            list.add(SliceGpu.of("GPU-" + i, i, "NVIDIA A100", 42949672960L));
        }
        return SliceBuilder.build(SliceInput.of("n", list, SliceSettings.defaults())).content();
    }

    private static SliceStore.Stored stored(String name, SliceContent content, long generation, Optional<SliceObject.NodeOwner> owner) {
        SliceObject o = new SliceObject(name, "rv-" + name, owner, content.atGeneration(generation));
        return new SliceStore.Stored(name, "rv-" + name, Decoded.ok(o));
    }

    @Test
    void createsAtGenerationOneOnAnEmptyPool() {
        SlicePlan plan = SlicePlan.decide(NAME, TWO, OWNER, List.of(), null);
        assertThat(plan.create()).isTrue();
        assertThat(plan.write().get().content().pool().generation()).isEqualTo(1);
        assertThat(plan.write().get().owner()).contains(OWNER);
        assertThat(plan.deletions()).isEmpty();
    }

    @Test
    void writesNothingWhenTheAdoptedSliceHoldsTheSameContentWhateverItsGeneration() {
        SlicePlan plan = SlicePlan.decide(NAME, TWO, OWNER, List.of(stored(NAME, TWO, 7, Optional.of(OWNER))), null);
        assertThat(plan.write()).isEmpty();
        assertThat(plan.deletions()).isEmpty();
    }

    @Test
    void updatesAtTheNextGenerationWhenTheContentChanged() {
        SlicePlan plan = SlicePlan.decide(NAME, ONE, OWNER, List.of(stored(NAME, TWO, 7, Optional.of(OWNER))), null);
        assertThat(plan.create()).isFalse();
        assertThat(plan.write().get().content().pool().generation()).isEqualTo(8);
        assertThat(plan.write().get().resourceVersion()).as("the update is guarded").isEqualTo("rv-" + NAME);
    }

    @Test
    void setsAMissingOwnerWithoutBumpingTheGeneration() {
        SlicePlan plan = SlicePlan.decide(NAME, TWO, OWNER, List.of(stored(NAME, TWO, 3, Optional.empty())), null);
        assertThat(plan.write().get().content().pool().generation()).isEqualTo(3);
        assertThat(plan.write().get().owner()).contains(OWNER);
    }

    @Test
    void recreatesADeletedSliceAtItsGenerationAndANewContentAboveIt() {
        SliceContent published = TWO.atGeneration(4);
        assertThat(SlicePlan.decide(NAME, TWO, OWNER, List.of(), published).write().get().content().pool().generation())
                .as("kubelet deleted it: same content, same generation").isEqualTo(4);
        assertThat(SlicePlan.decide(NAME, ONE, OWNER, List.of(), published).write().get().content().pool().generation())
                .isEqualTo(5);
    }

    @Test
    void keepsOneSliceAdoptingTheHighestGenerationAndNeverGoingBelowAnyInThePool() {
        SlicePlan plan = SlicePlan.decide(NAME, ONE, OWNER, List.of(stored("old-a", TWO, 2, Optional.of(OWNER)),
                stored("old-b", TWO, 9, Optional.of(OWNER))), null);
        assertThat(plan.write().get().name()).isEqualTo("old-b");
        assertThat(plan.write().get().content().pool().generation()).isEqualTo(10);
        assertThat(plan.deletions()).containsExactly("old-a");
    }

    @Test
    void replacesAnUnreadableSliceOfItsOwnName() {
        SliceStore.Stored broken = new SliceStore.Stored(NAME, "rv-9", Decoded.err("device x attribute y: unknown value type ints"));
        SlicePlan plan = SlicePlan.decide(NAME, TWO, OWNER, List.of(broken), null);
        assertThat(plan.create()).isFalse();
        assertThat(plan.write().get().resourceVersion()).isEqualTo("rv-9");
        assertThat(plan.write().get().content().pool().generation()).isEqualTo(1);
    }
}
