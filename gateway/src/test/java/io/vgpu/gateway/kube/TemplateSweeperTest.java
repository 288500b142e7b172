package io.vgpu.gateway.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vgpu.gateway.core.dra.ClaimTemplate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.vgpu.gateway.kube.KubeFixtures.finishOnWorker;
import static io.vgpu.gateway.kube.KubeFixtures.onWorker;
import static io.vgpu.gateway.testflow.TestFlow.finish;
import static io.vgpu.gateway.testflow.TestFlow.step;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link TemplateSweeper} on the fabric8 mock API server: a template of ours that no pod names for an hour goes; one
 * a pod names, one younger than an hour, one this replica handed out within the hour, and one without our labels
 * stay; a template that was used and then left stays an hour after the sweep that last saw it in use.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TemplateSweeperTest {

    private static KubeFixtures.MockKube kube;
    private static KubernetesClient client;
    private static KubeApi api;
    private String ns;
    private MutableClock clock;
    private KubeClaimTemplates templates;
    private TemplateSweeper sweeper;

    @BeforeAll
    static void startServer() {
        kube = KubeFixtures.mockKube();
        client = kube.client();
        api = kube.api();
    }

    @AfterAll
    static void stopServer() {
        kube.close();
    }

    @BeforeEach
    void sweeper(TestInfo test) {
        ns = KubeFixtures.nameOf(test);
        clock = new MutableClock(Instant.EPOCH);
        templates = new KubeClaimTemplates(api, clock);
        sweeper = new TemplateSweeper(api, templates, clock, Duration.ofHours(1));
    }

    @Test
    void deletesOnlyOurTemplatesUnusedForAnHour(Vertx vertx, VertxTestContext ctx) {
        template("vgpu-unused", true);
        template("vgpu-in-use", true);
        template("someone-elses", false);
        pod("runner", "vgpu-in-use");
        clock.now = created("vgpu-unused").plus(Duration.ofHours(2));

        finishOnWorker(ctx, vertx, step(sweeper.sweep()), deleted -> {
            assertThat(deleted).containsExactly(ns + "/vgpu-unused");
            assertThat(names()).containsExactlyInAnyOrder("vgpu-in-use", "someone-elses");
        });
    }

    @Test
    void aTemplateYoungerThanAnHourStays(VertxTestContext ctx) {
        template("vgpu-young", true);
        Instant created = created("vgpu-young");

        clock.now = created.plus(Duration.ofMinutes(59));
        Future<List<String>> later = step(sweeper.sweep()).compose(young -> {
            assertThat(young).isEmpty();
            clock.now = created.plus(Duration.ofMinutes(61));
            return step(sweeper.sweep());
        });

        finish(ctx, later, deleted -> assertThat(deleted).containsExactly(ns + "/vgpu-young"));
    }

    @Test
    void aTemplateLastSeenInUseStaysAnHourAfterThatSweep(Vertx vertx, VertxTestContext ctx) {
        template("vgpu-left", true);
        pod("runner", "vgpu-left");
        Instant seen = created("vgpu-left").plus(Duration.ofHours(5));
        clock.now = seen;

        Future<List<String>> afterTheHour = step(sweeper.sweep()).compose(inUse -> {
            assertThat(inUse).isEmpty();
            return onWorker(vertx, () -> client.pods().inNamespace(ns).withName("runner").delete());
        }).compose(podDeleted -> {
            clock.now = seen.plus(Duration.ofMinutes(59));
            return step(sweeper.sweep());
        }).compose(withinTheHour -> {
            assertThat(withinTheHour).isEmpty();
            clock.now = seen.plus(Duration.ofMinutes(61));
            return step(sweeper.sweep());
        });

        finishOnWorker(ctx, vertx, afterTheHour, deleted -> {
            assertThat(deleted).containsExactly(ns + "/vgpu-left");
            assertThat(names()).isEmpty();
        });
    }

    @Test
    void aTemplateThisReplicaJustHandedOutStays(VertxTestContext ctx) {
        template("vgpu-fresh", true);
        Instant handedOut = created("vgpu-fresh").plus(Duration.ofHours(3));
        clock.now = handedOut;
        ClaimTemplate same = new ClaimTemplate(ns, "vgpu-fresh", "h", Map.of("spec", Map.of()));

        Future<List<String>> later = step(templates.ensure(same)) // AlreadyExists: handed out to a pod not yet visible
                .compose(ensured -> step(sweeper.sweep()))
                .compose(fresh -> {
                    assertThat(fresh).isEmpty();
                    clock.now = handedOut.plus(Duration.ofMinutes(61));
                    return step(sweeper.sweep());
                });

        finish(ctx, later, deleted -> assertThat(deleted).containsExactly(ns + "/vgpu-fresh"));
    }

    private Instant created(String name) {
        String ts = client.genericKubernetesResources(DraTemplatesOnApiServerTest.TEMPLATES).inNamespace(ns)
                .withName(name).get().getMetadata().getCreationTimestamp();
        assertThat(ts).as("the API server stamps the creation time").isNotBlank();
        return Instant.parse(ts);
    }

    private List<String> names() {
        return client.genericKubernetesResources(DraTemplatesOnApiServerTest.TEMPLATES).inNamespace(ns).list()
                .getItems().stream().map(t -> t.getMetadata().getName()).toList();
    }

    private void template(String name, boolean ours) {
        Map<String, String> labels = new LinkedHashMap<>();
        if (ours) {
            labels.put(ClaimTemplate.MANAGED_BY, ClaimTemplate.MANAGER);
            labels.put(ClaimTemplate.COMPONENT_LABEL, ClaimTemplate.COMPONENT);
        }
        GenericKubernetesResource t = new GenericKubernetesResource();
        t.setApiVersion("resource.k8s.io/v1");
        t.setKind("ResourceClaimTemplate");
        t.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns).withLabels(labels).build());
        t.setAdditionalProperty("spec", Map.of("spec", Map.of("devices", Map.of())));
        client.genericKubernetesResources(DraTemplatesOnApiServerTest.TEMPLATES).inNamespace(ns).resource(t).create();
    }

    private void pod(String name, String template) {
        client.pods().inNamespace(ns).resource(new PodBuilder().withNewMetadata().withName(name).withNamespace(ns)
                .addToLabels(ClaimTemplate.POD_LABEL, template).endMetadata()
                .withNewSpec().addNewResourceClaim().withName("vgpu").withResourceClaimTemplateName(template)
                .endResourceClaim().addNewContainer().withName("main").withImage("cuda").endContainer().endSpec()
                .build()).create();
    }

    private static final class MutableClock extends Clock {
        volatile Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
