package io.vgpu.gateway.core.webhook;

import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.quota.NamespaceQuota;
import io.vgpu.gateway.core.request.NvidiaConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.vgpu.gateway.core.PodFixtures.ctr;
import static io.vgpu.gateway.core.PodFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WebhookConfigTest {

    static final List<String> SHARDS = List.of("gpu-sched-a", "gpu-sched-b", "gpu-sched-c");
    static final WebhookConfig SHARDED = new WebhookConfig(SHARDS, true, NvidiaConfig.defaults());

    @ParameterizedTest(name = "fnv1a32(\"{0}\") = {1}")
    @CsvSource({"'',811c9dc5", "a,e40c292c", "foobar,bf9cf968"})
    void fnv1aMatchesTheReferenceVectors(String key, String hex) {
        assertThat(WebhookConfig.fnv1a32(key)).isEqualTo(Integer.parseUnsignedInt(hex, 16));
    }

    @ParameterizedTest(name = "uid \"{0}\" → {1}")
    @CsvSource({
            "a,gpu-sched-a",
            "foobar,gpu-sched-a",
            "pod-uid-1,gpu-sched-b",
            "0c5f8a4e-9a8d-4f7e-b0a6-1b2c3d4e5f60,gpu-sched-a",
            "'',gpu-sched-c",
    })
    void shardsArePinnedByFloorModOfTheFnvHash(String uid, String expected) {
        // pinned values: changing the hash or the key would move pods between schedulers across an upgrade
        assertThat(SHARDED.schedulerFor(pod("p").uid(uid).build())).isEqualTo(expected);
    }

    @Test
    void theSameUidAlwaysGetsTheSameSchedulerOnEveryReplica() {
        PodSpec pod = pod("p").uid("0c5f8a4e-9a8d-4f7e-b0a6-1b2c3d4e5f60").build();
        WebhookConfig otherReplica = new WebhookConfig(List.copyOf(SHARDS), false, NvidiaConfig.defaults());

        String first = SHARDED.schedulerFor(pod);

        for (int i = 0; i < 10; i++) {
            assertThat(SHARDED.schedulerFor(pod)).isEqualTo(first);
            assertThat(otherReplica.schedulerFor(pod)).isEqualTo(first);
        }
    }

    @Test
    void hashIsReadAsASignedIntSoFloorModIsNeeded() {
        // 0xaeedf3c5 is negative as an int: a plain % would give -2 here, floorMod gives shard 1
        assertThat(WebhookConfig.fnv1a32("pod-uid-1")).isEqualTo(-1360137275);
        assertThat(SHARDED.schedulerFor(pod("p").uid("pod-uid-1").build())).isEqualTo("gpu-sched-b");
    }

    @Test
    void uidsSpreadOverEveryShard() {
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < 300; i++) {
            counts.merge(SHARDED.schedulerFor(pod("p").uid("uid-" + i).build()), 1, Integer::sum);
        }

        assertThat(counts).containsOnlyKeys(SHARDS);
        assertThat(counts.values()).allSatisfy(n -> assertThat(n).isBetween(60, 140));
    }

    @Test
    void withoutUidTheNamespacedNameIsTheKey() {
        PodSpec pod = pod("train").namespace("team-a").build();

        assertThat(WebhookConfig.shardKey(pod)).isEqualTo("team-a/train");
    }

    @Test
    void aPodNamingOneOfOurSchedulersKeepsIt() {
        PodSpec pod = pod("p").uid("a").schedulerName("gpu-sched-b").build();

        assertThat(SHARDED.schedulerFor(pod)).isEqualTo("gpu-sched-b");
    }

    @Test
    void deciderWritesTheShardNameAndTreatsEveryShardAsOwn() {
        WebhookDecider decider = new WebhookDecider(SHARDED);
        PodSpec fresh = pod("p").uid("foobar").container(ctr("c").limit("nvidia.com/gpu", "1")
                .limit("nvidia.com/gpumem", "1")).build();
        PodSpec pinned = pod("p").uid("foobar").schedulerName("gpu-sched-c")
                .container(ctr("c").limit("nvidia.com/gpu", "1").limit("nvidia.com/gpumem", "1")).build();

        AdmissionDecision.Allowed a = (AdmissionDecision.Allowed) decider.decide(fresh, NamespaceQuota.UNLIMITED);
        AdmissionDecision.Allowed b = (AdmissionDecision.Allowed) decider.decide(pinned, NamespaceQuota.UNLIMITED);

        assertThat(a.podAfter().schedulerName()).isEqualTo(SHARDED.schedulerFor(fresh));
        assertThat(b.message()).isEmpty();
        assertThat(b.podAfter().schedulerName()).isEqualTo("gpu-sched-c");
    }

    @Test
    void rejectsBlankOrDuplicateNames() {
        assertThatThrownBy(() -> new WebhookConfig(List.of("a", " "), true, NvidiaConfig.defaults()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new WebhookConfig(List.of("a", "a"), true, NvidiaConfig.defaults()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void singleWithEmptyNameConfiguresNone() {
        assertThat(WebhookConfig.single("", true, NvidiaConfig.defaults()).schedulerNames()).isEmpty();
        assertThat(WebhookConfig.single("hami-scheduler", true, NvidiaConfig.defaults()).schedulerNames())
                .containsExactly("hami-scheduler");
    }
}
