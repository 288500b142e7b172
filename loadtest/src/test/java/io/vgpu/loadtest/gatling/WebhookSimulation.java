package io.vgpu.loadtest.gatling;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.jsonPath;
import static io.gatling.javaapi.core.CoreDsl.rampUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

/**
 * (1) Webhook admission: every virtual user is one pod's {@code CREATE} reaching {@code /webhook} as the API server
 * sends it; open arrival model, a ramp as warm-up, then a constant rate; asserts the error rate.
 *
 * <p>{@code ./mvnw -pl loadtest gatling:test -Dgatling.simulationClass=io.vgpu.loadtest.gatling.WebhookSimulation}
 * (sizes: {@link GatlingCluster}).
 */
public class WebhookSimulation extends Simulation {

    private final GatlingCluster cluster = GatlingCluster.start(20);

    {
        HttpProtocolBuilder protocol = http.baseUrl(cluster.gatewayUrl()).contentTypeHeader("application/json")
                .acceptHeader("application/json").shareConnections();
        ScenarioBuilder admission = scenario("webhook admission")
                .feed(cluster.pods())
                .exec(http("webhook").post("/webhook").body(StringBody("#{review}"))
                        .check(status().is(200), jsonPath("$.response.allowed").ofBoolean().is(true)));
        int rate = GatlingCluster.rate(200);
        setUp(admission.injectOpen(
                rampUsersPerSec(1).to(rate).during(GatlingCluster.warmup()),
                constantUsersPerSec(rate).during(GatlingCluster.steady())).protocols(protocol))
                .assertions(global().failedRequests().percent().lte(1.0));
    }

    @Override
    public void after() {
        cluster.close();
    }
}
