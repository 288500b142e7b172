package io.vgpu.gateway.core.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vgpu.gateway.conformance.JsonPatchApplier;
import io.vgpu.gateway.conformance.KubePodJson;
import io.vgpu.gateway.core.PodFixtures.PodBuilder;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.request.NvidiaConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static io.vgpu.gateway.core.PodFixtures.ctr;
import static io.vgpu.gateway.core.PodFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Named.named;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class PodPatchTest {

    static Stream<Arguments> diffs() {
        return Stream.of(
                arguments(named("nothing changed", pod("p").container(ctr("c").limit("a", "1"))),
                        pod("p").container(ctr("c").limit("a", "1")), List.of()),
                arguments(named("member replaced and removed", pod("p").container(ctr("c").limit("a/b", "1")
                                .limit("x", "2"))), pod("p").container(ctr("c").limit("a/b", "3")),
                        List.of(PatchOp.replace("/spec/containers/0/resources/limits/a~1b", "3"),
                                PatchOp.remove("/spec/containers/0/resources/limits/x"))),
                arguments(named("limits emptied", pod("p").container(ctr("c").limit("a", "1").request("a", "1"))),
                        pod("p").container(ctr("c").request("a", "1")),
                        List.of(PatchOp.remove("/spec/containers/0/resources/limits"))),
                arguments(named("no resources at all: the parent is created",
                                pod("p").container(ctr("c"))), pod("p").container(ctr("c").limit("a", "1")),
                        List.of(PatchOp.add("/spec/containers/0/resources", Map.of("limits", Map.of("a", "1"))))),
                arguments(named("env element replaced, extra removed", pod("p").container(ctr("c").env("A", "1")
                                .env("B", "2").env("C", "3"))), pod("p").container(ctr("c").env("A", "9")),
                        List.of(PatchOp.replace("/spec/containers/0/env/0", Map.of("name", "A", "value", "9")),
                                PatchOp.remove("/spec/containers/0/env/2"),
                                PatchOp.remove("/spec/containers/0/env/1"))),
                arguments(named("env emptied", pod("p").container(ctr("c").env("A", "1"))), pod("p").container(ctr("c")),
                        List.of(PatchOp.remove("/spec/containers/0/env"))),
                arguments(named("runtime class replaced", pod("p").runtimeClassName("kata").container(ctr("c"))),
                        pod("p").runtimeClassName("nvidia").container(ctr("c")),
                        List.of(PatchOp.replace("/spec/runtimeClassName", "nvidia"))),
                arguments(named("scheduler name removed", pod("p").schedulerName("x").container(ctr("c"))),
                        pod("p").container(ctr("c")), List.of(PatchOp.remove("/spec/schedulerName"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("diffs")
    void emitsTargetedOpsThatApplyToThePodJson(PodBuilder before, PodBuilder after, List<PatchOp> expected) {
        PodSpec b = before.build();
        PodSpec a = after.build();

        List<PatchOp> ops = PodPatch.diff(b, a);

        assertThat(ops).isEqualTo(expected);
        JsonNode patched = JsonPatchApplier.apply(KubePodJson.toKube(b), ops);
        assertThat(patched).isEqualTo(KubePodJson.toKube(a));
    }

    @Test
    void resourcesParentIsCreatedEvenWhenTheApiServerOmittedIt() {
        PodSpec b = pod("p").container(ctr("c")).build();
        PodSpec a = pod("p").container(ctr("c").limit("nvidia.com/gpu", "1")).build();
        JsonNode withoutResources = KubePodJson.toKube(b);
        ((ObjectNode) withoutResources.path("spec").path("containers").get(0))
                .remove("resources");

        JsonNode patched = JsonPatchApplier.apply(withoutResources, PodPatch.diff(b, a));

        assertThat(KubePodJson.fromKube(patched)).isEqualTo(a);
    }

    @Test
    void deciderPatchOnAPodWithEverythingApplies() {
        NvidiaConfig cfg = new NvidiaConfig("nvidia.com/gpu", "nvidia.com/gpumem", "nvidia.com/gpumem-percentage",
                "nvidia.com/gpucores", "nvidia.com/priority", true, 0, 0, 1, 1, "force", "nvidia");
        PodSpec p = pod("p").schedulerName("default-scheduler")
                .init(ctr("i").request("nvidia.com/gpu", "1").env("X", "1"))
                .container(ctr("a").limit("nvidia.com/gpumem-percentage", "100"))
                .container(ctr("b").limit("cpu", "1"))
                .build();

        AdmissionDecision.Allowed allowed = (AdmissionDecision.Allowed) new WebhookDecider(
                WebhookConfig.single("hami-scheduler", true, cfg)).decide(p, (ns, m, c) -> true);

        JsonNode patched = JsonPatchApplier.apply(KubePodJson.toKube(p), allowed.patch());
        assertThat(KubePodJson.fromKube(patched)).isEqualTo(allowed.podAfter());
        assertThat(patched).isEqualTo(KubePodJson.toKube(allowed.podAfter()));
        assertThat(allowed.podAfter().containers().get(0).limits()).containsEntry("nvidia.com/gpu", "1")
                .containsEntry("nvidia.com/gpucores", "100");
        assertThat(allowed.podAfter().initContainers().get(0).limits()).containsEntry("nvidia.com/gpucores", "100");
    }
}
