package io.vgpu.gateway.core.filter;

import io.vgpu.gateway.core.Container;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.fit.AnnotationFilters;
import io.vgpu.gateway.core.fit.ScoringWeights;
import io.vgpu.gateway.core.quota.QuotaGate;
import io.vgpu.gateway.core.reason.NodeRejection;
import io.vgpu.gateway.core.score.PodDemand;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.ContainerRequest;
import io.vgpu.state.model.DeviceUsage;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.MigPlacement;
import io.vgpu.state.model.MigProfile;
import io.vgpu.state.model.NodeView;
import io.vgpu.state.model.Vendor;
import io.vgpu.state.model.fixtures.GpuFixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The verdict cache never changes a decision: a decider that keeps node outcomes between calls answers exactly as
 * one that scores every node on every call, on randomized clusters and pods, while nodes change and quotas move.
 */
class VerdictCacheTest {

    private static final String[] TYPES = {"NVIDIA A100-SXM4-80GB", "NVIDIA H100", "NVIDIA L4", "Tesla T4"};
    private static final String[] GPU_POLICIES = {"binpack", "spread", "topology-aware", "mutex", "numa",
            "binpack,numa"};

    private final FilterDecider uncached = new FilterDecider(FilterConfig.defaults(), null);

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void cachedDecisionsEqualUncachedOnesWhileNodesAndQuotasChange(long seed) {
        Random rnd = new Random(seed);
        // few shapes and a small cache: hits, misses and evictions all happen
        FilterDecider cached = new FilterDecider(FilterConfig.defaults(), new VerdictCache(3, 64));
        Map<String, NodeView> views = new HashMap<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String name = "node-" + i;
            names.add(name);
            views.put(name, randomNode(rnd, name));
        }
        List<PodSpec> pods = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            pods.add(randomPod(rnd, i));
        }
        FlippingQuota quota = new FlippingQuota();
        int fits = 0;
        for (int call = 0; call < 400; call++) {
            PodSpec pod = pods.get(rnd.nextInt(pods.size()));
            List<String> requested = rnd.nextInt(4) == 0 ? names.subList(0, 20 + rnd.nextInt(20)) : names;
            if (rnd.nextInt(10) == 0) {
                requested = new ArrayList<>(requested);
                requested.add("ghost");
                requested.add(requested.get(0)); // a name listed twice
            }
            quota.limitLeft.set(rnd.nextInt(20_000));
            FilterDecision expected = uncached.decide(pod, requested, views::get, quota);
            FilterDecision actual = cached.decide(pod, requested, views::get, quota);
            assertThat(actual).as("call %d, pod %s", call, pod.name()).isEqualTo(expected);
            if (expected instanceof FilterDecision.Fits f) {
                fits++;
                assertThat(((FilterDecision.Fits) actual).ranked()).extracting(Candidate::node)
                        .containsExactlyElementsOf(f.ranked().stream().map(Candidate::node).toList());
            }
            // the cluster moves on: some nodes change, some get an equal but new view, one disappears for a while
            for (int k = rnd.nextInt(4); k > 0; k--) {
                String name = names.get(rnd.nextInt(names.size()));
                NodeView v = views.get(name);
                int roll = rnd.nextInt(5);
                if (roll == 0 || v == null) {
                    views.put(name, randomNode(rnd, name));
                } else if (roll == 1) {
                    views.put(name, new NodeView(name, v.devices(), v.annotations(), v.pairScores()));
                } else if (roll == 2) {
                    views.remove(name);
                } else {
                    views.put(name, withLoad(rnd, v));
                }
            }
        }
        assertThat(fits).as("the randomized pods fit somewhere in many calls").isGreaterThan(30);
    }

    @Test
    void unchangedNodeIsAnsweredFromTheCacheAndAChangedNodeIsScoredAgain() {
        FilterDecider cached = new FilterDecider(FilterConfig.defaults());
        Map<String, NodeView> views = new HashMap<>(Map.of("a", node("a", 0), "b", node("b", 0)));
        PodSpec pod = pod("p1", 1, 1000, Map.of());
        FilterDecision.Fits first = (FilterDecision.Fits) cached.decide(pod, List.of("a", "b"), views::get,
                QuotaGate.NONE);
        // another pod of the same shape: both outcomes reused (the very same candidate objects)
        FilterDecision.Fits second = (FilterDecision.Fits) cached.decide(pod("p2", 1, 1000, Map.of("x", "y")),
                List.of("a", "b"), views::get, QuotaGate.NONE);
        assertThat(second.ranked()).usingElementComparator((x, y) -> x == y ? 0 : 1)
                .containsExactlyInAnyOrderElementsOf(first.ranked());

        views.put("a", node("a", 7500)); // a fills up
        FilterDecision third = cached.decide(pod, List.of("a", "b"), views::get, QuotaGate.NONE);
        assertThat(third).isInstanceOfSatisfying(FilterDecision.Fits.class, f -> {
            assertThat(f.ranked()).extracting(Candidate::node).containsExactly("b");
            assertThat(f.rejected().get("a").hamiText()).isEqualTo("1/1 CardInsufficientMemory");
            assertThat(f.rejected()).containsOnlyKeys("a");
            assertThat(f.ranked().get(0)).isSameAs(candidate(first, "b"));
        });

        views.put("a", node("a", 2000)); // a frees most of it again: scored afresh, with its new score
        FilterDecision.Fits fourth = (FilterDecision.Fits) cached.decide(pod, List.of("a", "b"), views::get,
                QuotaGate.NONE);
        assertThat(candidate(fourth, "a")).isNotSameAs(candidate(first, "a"));
        assertThat(candidate(fourth, "a").score()).isGreaterThan(candidate(first, "a").score());
        assertThat(fourth.best().node()).isEqualTo("a"); // binpack: now the fuller node
    }

    @Test
    void theSameListInTheSameOrderReusesEachPositionsOutcome() {
        FilterDecider cached = new FilterDecider(FilterConfig.defaults());
        Map<String, NodeView> views = new HashMap<>(Map.of("a", node("a", 0), "b", node("b", 3000)));
        PodSpec pod = pod("p1", 1, 1000, Map.of());
        // names decoded afresh for every request: equal strings, other objects
        FilterDecision.Fits first = (FilterDecision.Fits) cached.decide(pod, List.of(new String("a"), new String("b")),
                views::get, QuotaGate.NONE);
        FilterDecision.Fits second = (FilterDecision.Fits) cached.decide(pod,
                List.of(new String("a"), new String("b")), views::get, QuotaGate.NONE);
        assertThat(second.ranked()).usingElementComparator((x, y) -> x == y ? 0 : 1)
                .containsExactlyElementsOf(first.ranked());
    }

    @Test
    void aViewAtTheSamePositionUnderAnotherNameIsAnsweredWithTheNameRequested() {
        FilterDecider cached = new FilterDecider(FilterConfig.defaults());
        NodeView shared = node("a", 0);
        PodSpec pod = pod("p1", 1, 1000, Map.of());
        cached.decide(pod, List.of("a"), n -> shared, QuotaGate.NONE);
        // the same view object at the same position, requested as another node: its outcome names "b", not "a"
        FilterDecision second = cached.decide(pod, List.of("b"), n -> shared, QuotaGate.NONE);
        assertThat(second).isEqualTo(uncached.decide(pod, List.of("b"), n -> shared, QuotaGate.NONE));
        assertThat(((FilterDecision.Fits) second).best().node()).isEqualTo("b");
    }

    @Test
    void podsWhoseNamespaceEnforcesAQuotaAreAlwaysScoredAfresh() {
        FilterDecider cached = new FilterDecider(FilterConfig.defaults());
        Map<String, NodeView> views = Map.of("a", node("a", 0));
        FlippingQuota quota = new FlippingQuota();
        quota.limitLeft.set(5000);
        PodSpec base = pod("p", 1, 1000, Map.of());
        PodSpec pod = new PodSpec("p", FlippingQuota.LIMITED, "uid-p", "", "", null, Map.of(), Map.of(), List.of(),
                base.containers());
        assertThat(cached.decide(pod, List.of("a"), views::get, quota)).isInstanceOf(FilterDecision.Fits.class);
        quota.limitLeft.set(500); // the namespace's usage grew elsewhere; the node did not change
        assertThat(cached.decide(pod, List.of("a"), views::get, quota)).isInstanceOfSatisfying(
                FilterDecision.NoFit.class, n -> assertThat(n.rejected().get("a").hamiText()).contains("ResourceQuotaNotFit"));
    }

    @Test
    void shapesDifferInEveryFieldTheScorerReads() {
        PodSpec base = pod("p", 1, 1000, Map.of());
        VerdictCache cache = new VerdictCache(64, 64);
        FilterDecider counting = new FilterDecider(FilterConfig.defaults(), cache);
        List<PodSpec> variants = List.of(base, pod("p", 2, 1000, Map.of()), pod("p", 1, 2000, Map.of()),
                pod("p", 1, 1000, Map.of(HamiAnnotations.GPU_SCHEDULER_POLICY, "binpack")),
                pod("p", 1, 1000, Map.of(HamiAnnotations.USE_GPU_TYPE, "A100")),
                pod("p", 1, 1000, Map.of(HamiAnnotations.NOUSE_GPU_TYPE, "A100")),
                pod("p", 1, 1000, Map.of(HamiAnnotations.USE_GPU_UUID, "GPU-a")),
                pod("p", 1, 1000, Map.of(HamiAnnotations.NOUSE_GPU_UUID, "GPU-a")),
                pod("p", 1, 1000, Map.of(HamiAnnotations.VGPU_MODE, "mig")),
                pod("p", 1, 1000, Map.of(HamiAnnotations.NUMA_BIND, "true")),
                pod("p", 1, 1000, Map.of(HamiAnnotations.DEVICE_SCORING_WEIGHTS, "slot=1,core=0,memory=2")),
                withInit(base));
        Map<String, NodeView> views = Map.of("a", node("a", 0));
        for (PodSpec p : variants) {
            counting.decide(p, List.of("a"), views::get, QuotaGate.NONE);
        }
        assertThat(cache.shapeCount()).isEqualTo(variants.size());
        // what the scorer does not read shares a shape: name, namespace, labels, other annotations, node policy
        counting.decide(new PodSpec("q", "other-ns", "uid-9", "", "", null,
                Map.of("team", "x", HamiAnnotations.NODE_SCHEDULER_POLICY, "spread"), Map.of("l", "v"), List.of(),
                base.containers()), List.of("a"), views::get, QuotaGate.NONE);
        assertThat(cache.shapeCount()).isEqualTo(variants.size());
    }

    @Test
    void leastRecentlyUsedShapeIsEvictedAndAFullShapeStartsOver() {
        VerdictCache cache = new VerdictCache(2, 3);
        FilterDecider cached = new FilterDecider(FilterConfig.defaults(), cache);
        Map<String, NodeView> views = new HashMap<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            names.add("n" + i);
            views.put("n" + i, node("n" + i, 0));
        }
        for (int mem : new int[] {1000, 2000, 3000}) {
            assertThat(cached.decide(pod("p", 1, mem, Map.of()), names, views::get, QuotaGate.NONE))
                    .isEqualTo(uncached.decide(pod("p", 1, mem, Map.of()), names, views::get, QuotaGate.NONE));
        }
        assertThat(cache.shapeCount()).isEqualTo(2);
    }

    @Test
    void aShapeThatOutgrowsItsBoundStartsOver() {
        VerdictCache.Verdicts verdicts = new VerdictCache(1, 3).forShape(shape(1000));
        List<NodeView> nodes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            nodes.add(node("n" + i, 0));
            verdicts.put("n" + i, new VerdictCache.Outcome("n" + i, nodes.get(i), null, new NodeRejection.Inconsistent("reason " + i)));
        }
        assertThat(verdicts.size()).isEqualTo(1);
        assertThat(verdicts.get("n3", nodes.get(3))).isNotNull();
        assertThat(verdicts.get("n0", nodes.get(0))).isNull();
        verdicts.put("n3", new VerdictCache.Outcome("n3", nodes.get(3), null, new NodeRejection.Inconsistent("again"))); // a known node: nothing dropped
        assertThat(verdicts.get("n3", nodes.get(3)).rejection().hamiText()).isEqualTo("again");
        assertThat(verdicts.get("n3", node("n3", 0))).as("an equal view that is another object").isNull();
        verdicts.rememberCall(new VerdictCache.Outcome[3]);
        assertThat(verdicts.lastCall()).hasSize(3);
        verdicts.rememberCall(new VerdictCache.Outcome[4]); // longer than the bound: positions are not kept
        assertThat(verdicts.lastCall()).isEmpty();
    }

    @Test
    void leastRecentlyUsedShapeGoes() {
        VerdictCache cache = new VerdictCache(2, 8);
        VerdictCache.Verdicts first = cache.forShape(shape(1000));
        cache.forShape(shape(2000));
        assertThat(cache.forShape(shape(1000))).isSameAs(first); // 1000 is now the most recent
        cache.forShape(shape(3000)); // evicts 2000
        assertThat(cache.forShape(shape(1000))).isSameAs(first);
        assertThat(cache.shapeCount()).isEqualTo(2);
    }

    @Test
    void simulationModeKeepsNothing() {
        VerdictCache cache = new VerdictCache(4, 16);
        FilterDecider cached = new FilterDecider(FilterConfig.defaults(), cache);
        cached.decideSimulation(pod("p", 1, 1000, Map.of()), new LinkedHashMap<>(Map.of("a", Map.of())));
        assertThat(cache.shapeCount()).isZero();
    }

    @Test
    void demandWithAQuotaGateHasNoShape() {
        assertThatThrownBy(() -> DemandShape.of(new PodDemand(List.of(), 0, Map.of(), "ns",
                "spread", false, null, (ns, c, i) -> true))).isInstanceOf(IllegalArgumentException.class);
    }

    // ------------------------------------------------------------------ fixtures

    private static DemandShape shape(int mem) {
        return new DemandShape(List.of(new ContainerRequest(1, Vendor.NVIDIA, mem, ContainerRequest.NO_PERCENTAGE, 0)),
                0, "spread", false, ScoringWeights.DEFAULT, AnnotationFilters.of(Map.of()));
    }

    private static Candidate candidate(FilterDecision.Fits fits, String node) {
        return fits.ranked().stream().filter(c -> c.node().equals(node)).findFirst().orElseThrow();
    }

    private static PodSpec pod(String name, int gpus, int mem, Map<String, String> annotations) {
        return new PodSpec(name, "ns", "uid-" + name, "", "", null, annotations, Map.of(), List.of(),
                List.of(new Container("c", Map.of("nvidia.com/gpu", Integer.toString(gpus), "nvidia.com/gpumem",
                        Integer.toString(mem)), Map.of(), false, List.of())));
    }

    private static PodSpec withInit(PodSpec p) {
        return new PodSpec(p.name(), p.namespace(), p.uid(), "", "", null, p.annotations(), Map.of(),
                List.of(new Container("init", Map.of("nvidia.com/gpu", "1"), Map.of(), false, List.of())),
                p.containers());
    }

    private static NodeView node(String name, int usedMem) {
        GpuDevice card = GpuFixtures.card("GPU-" + name).memMiB(8000).type("NVIDIA A100").build();
        return new NodeView(name, List.of(DeviceUsage.idle(card).plus(usedMem > 0 ? 1 : 0, usedMem, 0)), Map.of(),
                Map.of());
    }

    static NodeView randomNode(Random rnd, String name) {
        int cards = 1 + rnd.nextInt(8);
        String type = TYPES[rnd.nextInt(TYPES.length)];
        boolean mig = rnd.nextInt(8) == 0;
        List<DeviceUsage> devices = new ArrayList<>();
        Map<String, Map<String, Integer>> pairs = new LinkedHashMap<>();
        for (int i = 0; i < cards; i++) {
            List<MigProfile> profiles = mig ? List.of(
                    new MigProfile("1g.10gb", 10_000, 14, 1, List.of(new MigPlacement(0, 1), new MigPlacement(1, 1),
                            new MigPlacement(2, 1), new MigPlacement(3, 1))),
                    new MigProfile("2g.20gb", 20_000, 28, 2, List.of(new MigPlacement(0, 2), new MigPlacement(2, 2))))
                    : List.of();
            GpuFixtures.Card builder = GpuFixtures.card("GPU-" + name + "-" + i).index(i).slots(4 + rnd.nextInt(8))
                    .memMiB(40_000 + rnd.nextInt(4) * 20_000).type(type).numa(i * 2 / Math.max(cards, 1))
                    .mode(mig ? "mig" : "hami-core").health(rnd.nextInt(15) != 0);
            profiles.forEach(builder::profile);
            GpuDevice card = builder.build();
            devices.add(load(rnd, DeviceUsage.idle(card)));
            Map<String, Integer> row = new LinkedHashMap<>();
            for (int j = 0; j < cards; j++) {
                if (j != i) {
                    row.put("GPU-" + name + "-" + j, rnd.nextInt(100));
                }
            }
            pairs.put("GPU-" + name + "-" + i, Map.copyOf(row));
        }
        Map<String, String> annotations = rnd.nextInt(6) == 0
                ? Map.of(HamiAnnotations.DEVICE_CORDON, "GPU-" + name + "-0") : Map.of();
        return new NodeView(name, devices, annotations, pairs);
    }

    private static DeviceUsage load(Random rnd, DeviceUsage d) {
        if (d.isMig() || rnd.nextInt(3) == 0) {
            return d;
        }
        int slots = rnd.nextInt(Math.max(1, d.count()));
        return d.plus(slots, Math.min(d.totalmem(), rnd.nextInt(d.totalmem() + 1)), Math.min(100, rnd.nextInt(120)));
    }

    static NodeView withLoad(Random rnd, NodeView v) {
        List<DeviceUsage> devices = new ArrayList<>(v.devices());
        int i = rnd.nextInt(devices.size());
        DeviceUsage d = devices.get(i);
        if (!d.isMig() && d.usedmem() + 1000 <= d.totalmem()) {
            devices.set(i, d.plus(1, 1000, 10));
        }
        return new NodeView(v.name(), devices, v.annotations(), v.pairScores());
    }

    static PodSpec randomPod(Random rnd, int i) {
        Map<String, String> limits = new HashMap<>();
        limits.put("nvidia.com/gpu", Integer.toString(1 + rnd.nextInt(3)));
        if (rnd.nextBoolean()) {
            limits.put("nvidia.com/gpumem", Integer.toString(1000 * (1 + rnd.nextInt(30))));
        } else if (rnd.nextBoolean()) {
            limits.put("nvidia.com/gpumem-percentage", Integer.toString(10 + rnd.nextInt(90)));
        }
        if (rnd.nextBoolean()) {
            limits.put("nvidia.com/gpucores", Integer.toString(rnd.nextInt(101)));
        }
        Map<String, String> annotations = new HashMap<>();
        if (rnd.nextBoolean()) {
            annotations.put(HamiAnnotations.GPU_SCHEDULER_POLICY, GPU_POLICIES[rnd.nextInt(GPU_POLICIES.length)]);
        }
        if (rnd.nextInt(3) == 0) {
            annotations.put(HamiAnnotations.NODE_SCHEDULER_POLICY, rnd.nextBoolean() ? "spread" : "binpack");
        }
        if (rnd.nextInt(4) == 0) {
            annotations.put(HamiAnnotations.USE_GPU_TYPE, rnd.nextBoolean() ? "A100,H100" : "T4");
        }
        if (rnd.nextInt(6) == 0) {
            annotations.put(HamiAnnotations.NOUSE_GPU_TYPE, "L4");
        }
        if (rnd.nextInt(6) == 0) {
            annotations.put(HamiAnnotations.NOUSE_GPU_UUID, "GPU-node-" + rnd.nextInt(10) + "-0");
        }
        if (rnd.nextInt(5) == 0) {
            annotations.put(HamiAnnotations.NUMA_BIND, "true");
        }
        if (rnd.nextInt(8) == 0) {
            annotations.put(HamiAnnotations.VGPU_MODE, rnd.nextBoolean() ? "mig" : "hami-core");
        }
        String namespace = rnd.nextInt(3) == 0 ? FlippingQuota.LIMITED : "free";
        List<Container> init = rnd.nextInt(4) == 0
                ? List.of(new Container("init", Map.of("nvidia.com/gpu", "1", "nvidia.com/gpumem", "2000"), Map.of(),
                false, List.of())) : List.of();
        return new PodSpec("pod-" + i, namespace, "uid-" + i, "", "", null, annotations, Map.of(), init,
                List.of(new Container("main", limits, Map.of(), false, List.of())));
    }

    /** A quota on one namespace whose room changes between calls, as other pods come and go. */
    private static final class FlippingQuota implements QuotaGate {
        static final String LIMITED = "limited";
        final AtomicInteger limitLeft = new AtomicInteger();

        @Override
        public boolean admits(String namespace, List<List<ContainerDevice>> containers, int initCount) {
            if (!LIMITED.equals(namespace)) {
                return true;
            }
            int mem = 0;
            for (List<ContainerDevice> c : containers) {
                for (ContainerDevice d : c) {
                    mem += d.usedmem();
                }
            }
            return mem <= limitLeft.get();
        }

        @Override
        public boolean enforces(String namespace) {
            return LIMITED.equals(namespace);
        }
    }
}
