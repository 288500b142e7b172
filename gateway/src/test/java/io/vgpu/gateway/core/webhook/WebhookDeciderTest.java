package io.vgpu.gateway.core.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.gateway.conformance.JsonPatchApplier;
import io.vgpu.gateway.conformance.KubePodJson;
import io.vgpu.gateway.core.PodFixtures.PodBuilder;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.quota.NamespaceQuota;
import io.vgpu.gateway.core.quota.QuotaBook;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.core.request.Quantity;
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

class WebhookDeciderTest {

    static final String GPU = "nvidia.com/gpu";
    static final String MEM = "nvidia.com/gpumem";
    static final String PCT = "nvidia.com/gpumem-percentage";
    static final String CORES = "nvidia.com/gpucores";
    static final String HAMI = "hami-scheduler";
    static final NvidiaConfig NVIDIA = NvidiaConfig.defaults();
    static final WebhookDecider DECIDER = new WebhookDecider(WebhookConfig.single(HAMI, true, NVIDIA));

    static Stream<Arguments> outcomes() {
        return Stream.of(
                arguments(named("no containers", pod("p")), new AdmissionDecision.Denied("pod has no containers")),
                arguments(named("foreign scheduler is left alone", pod("p").schedulerName("volcano")
                                .container(ctr("c").limit(GPU, "1"))),
                        new AdmissionDecision.Allowed("pod already has different scheduler assigned", List.of(),
                                pod("p").schedulerName("volcano").container(ctr("c").limit(GPU, "1")).build())),
                arguments(named("GPU pod with nodeName", pod("p").nodeName("n1").container(ctr("c").limit(GPU, "1"))),
                        new AdmissionDecision.Denied("pod has node assigned")),
                arguments(named("privileged init container with a GPU app container", pod("p")
                                .init(ctr("setup").privileged()).container(ctr("c").limit(GPU, "1"))),
                        new AdmissionDecision.Denied("container setup is privileged")),
                arguments(named("privileged wins over nodeName", pod("p").nodeName("n1")
                                .container(ctr("c").privileged().limit(GPU, "1"))),
                        new AdmissionDecision.Denied("container c is privileged")),
                arguments(named("invalid percentage in an init container", pod("p")
                                .init(ctr("i").limit(GPU, "1").limit(PCT, "101")).container(ctr("c"))),
                        new AdmissionDecision.Errored(500, "invalid " + PCT
                                + " value 101 in container i: must be an integer between 0 and 100")),
                arguments(named("unparseable quantity", pod("p").container(ctr("c").limit("memory", "lots"))),
                        new AdmissionDecision.Errored(400, "container c: resource memory: quantity \"lots\": "
                                + Quantity.FORMAT_WRONG)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("outcomes")
    void decides(PodBuilder pod, AdmissionDecision expected) {
        assertThat(DECIDER.decide(pod.build(), NamespaceQuota.UNLIMITED)).isEqualTo(expected);
    }

    static Stream<Arguments> patches() {
        return Stream.of(
                arguments(named("GPU pod: scheduler and exclusive cores",
                                pod("p").container(ctr("c").limit(GPU, "1"))),
                        List.of(PatchOp.add("/spec/schedulerName", HAMI),
                                PatchOp.add("/spec/containers/0/resources/limits/nvidia.com~1gpucores", "100"))),
                arguments(named("default-scheduler is replaced when forced",
                                pod("p").schedulerName("default-scheduler").container(ctr("c").limit(GPU, "1")
                                        .limit(MEM, "1000"))),
                        List.of(PatchOp.replace("/spec/schedulerName", HAMI))),
                arguments(named("already ours: nothing to change",
                                pod("p").schedulerName(HAMI).container(ctr("c").limit(GPU, "1").limit(MEM, "1000"))),
                        List.of()),
                arguments(named("non-GPU pod keeps its scheduler", pod("p").container(ctr("c").limit("cpu", "1"))),
                        List.of()),
                arguments(named("non-GPU pod with nodeName is fine", pod("p").nodeName("n1")
                        .container(ctr("c").limit("cpu", "1"))), List.of()),
                arguments(named("requests-only GPU gets a new limits map",
                                pod("p").container(ctr("c").request(GPU, "1"))),
                        List.of(PatchOp.add("/spec/schedulerName", HAMI),
                                PatchOp.add("/spec/containers/0/resources/limits", Map.of(CORES, "100")))),
                arguments(named("init container paths", pod("p").init(ctr("i").limit(MEM, "10"))
                                .container(ctr("c"))),
                        List.of(PatchOp.add("/spec/schedulerName", HAMI),
                                PatchOp.add("/spec/initContainers/0/resources/limits/nvidia.com~1gpu", "1"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("patches")
    void patchesOnlyWhatChangedAndThePatchApplies(PodBuilder builder, List<PatchOp> expected) {
        PodSpec pod = builder.build();

        AdmissionDecision.Allowed allowed = (AdmissionDecision.Allowed) DECIDER.decide(pod, NamespaceQuota.UNLIMITED);

        assertThat(allowed.patch()).isEqualTo(expected);
        assertThat(allowed.message()).isEmpty();
        JsonNode patched = JsonPatchApplier.apply(KubePodJson.toKube(pod), allowed.patch());
        assertThat(KubePodJson.fromKube(patched)).isEqualTo(allowed.podAfter());
    }

    @Test
    void envAndRuntimeClassPatchesCreateOrAppend() {
        NvidiaConfig cfg = new NvidiaConfig(GPU, MEM, PCT, CORES, "nvidia.com/priority", true, 0, 0, 1, 1, "force",
                "nvidia");
        WebhookDecider decider = new WebhookDecider(WebhookConfig.single(HAMI, true, cfg));
        PodSpec pod = pod("p")
                .container(ctr("gpu").limit(GPU, "1").limit(MEM, "1").limit("nvidia.com/priority", "1").env("A", "1"))
                .container(ctr("cpu")).build();

        AdmissionDecision.Allowed allowed = (AdmissionDecision.Allowed) decider.decide(pod, NamespaceQuota.UNLIMITED);

        assertThat(allowed.patch()).containsExactly(
                PatchOp.add("/spec/schedulerName", HAMI),
                PatchOp.add("/spec/runtimeClassName", "nvidia"),
                PatchOp.add("/spec/containers/0/env/-", Map.of("name", "CUDA_TASK_PRIORITY", "value", "1")),
                PatchOp.add("/spec/containers/0/env/-", Map.of("name", "GPU_CORE_UTILIZATION_POLICY", "value", "force")),
                PatchOp.add("/spec/containers/1/env", List.of(
                        Map.of("name", "GPU_CORE_UTILIZATION_POLICY", "value", "force"),
                        Map.of("name", "NVIDIA_VISIBLE_DEVICES", "value", "none"))));
        JsonNode patched = JsonPatchApplier.apply(KubePodJson.toKube(pod), allowed.patch());
        assertThat(KubePodJson.fromKube(patched)).isEqualTo(allowed.podAfter());
        assertThat(allowed.podAfter().runtimeClassName()).isEqualTo("nvidia");
    }

    @Test
    void emptySchedulerNameIsRewrittenEvenWithoutForce() {
        WebhookDecider decider = new WebhookDecider(WebhookConfig.single(HAMI, false, NVIDIA));
        PodSpec pod = pod("p").container(ctr("c").limit(GPU, "1").limit(MEM, "10")).build();

        AdmissionDecision.Allowed allowed = (AdmissionDecision.Allowed) decider.decide(pod, NamespaceQuota.UNLIMITED);

        assertThat(allowed.podAfter().schedulerName()).isEqualTo(HAMI);
    }

    @Test
    void withoutSchedulerNameGpuPodsKeepTheirsAndNodeNameIsNotChecked() {
        WebhookDecider decider = new WebhookDecider(WebhookConfig.single("", true, NVIDIA));
        PodSpec pod = pod("p").nodeName("n1").schedulerName("default-scheduler")
                .container(ctr("c").limit(GPU, "1").limit(MEM, "10")).build();

        AdmissionDecision decision = decider.decide(pod, NamespaceQuota.UNLIMITED);

        assertThat(decision).isEqualTo(new AdmissionDecision.Allowed("", List.of(), pod));
    }

    @Test
    void quotaIsCheckedOnTheMutatedPod() {
        QuotaBook book = new QuotaBook(MEM, CORES, 1);
        book.setLimit("default", CORES, 50);
        // gpu:1 alone becomes gpucores:100 (exclusive) and is then charged 100 cores
        PodSpec pod = pod("p").container(ctr("c").limit(GPU, "1")).build();

        assertThat(DECIDER.decide(pod, book)).isEqualTo(new AdmissionDecision.Denied("exceeding resource quota"));
    }

    @Test
    void percentageOnlyRequestsAreNotChargedAtAdmission() {
        QuotaBook book = new QuotaBook(MEM, CORES, 1);
        book.setLimit("default", MEM, 0);
        PodSpec pod = pod("p").container(ctr("c").limit(GPU, "1").limit(PCT, "50")).build();

        assertThat(DECIDER.decide(pod, book)).isInstanceOf(AdmissionDecision.Allowed.class);
    }

    @Test
    void quotaOfAnotherNamespaceDoesNotApply() {
        QuotaBook book = new QuotaBook(MEM, CORES, 1);
        book.setLimit("other", MEM, 0);
        PodSpec pod = pod("p").container(ctr("c").limit(GPU, "1").limit(MEM, "10")).build();

        assertThat(DECIDER.decide(pod, book)).isInstanceOf(AdmissionDecision.Allowed.class);
    }

    @Test
    void denialCodes() {
        assertThat(new AdmissionDecision.Denied("x").code()).isEqualTo(403);
        assertThat(new AdmissionDecision.Denied("x").reason()).isEqualTo("Forbidden");
        assertThat(new AdmissionDecision.Allowed(null, List.of(), pod("p").build()).code()).isEqualTo(200);
    }
}
