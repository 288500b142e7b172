package io.vgpu.loadtest.gatling;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.bodyString;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.jsonPath;
import static io.gatling.javaapi.core.CoreDsl.rampUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

/**
 * (3) {@code /filter} alone at a large candidate list: {@code vgpu.load.nodes} nodes (default 2,000 × 8 GPUs), every
 * one of them in {@code NodeNames}. Each virtual user creates one admitted pod in the API server (not asserted on
 * separately: it is the API server's work) and asks {@code /filter} for it; the reservation is left to expire, as
 * when kube-scheduler's binding never comes. Open arrival model, a ramp as warm-up; asserts the filter's error
 * rate (an HTTP failure or an {@code Error} answer; a filter that chooses no node is an answer).
 */
public class FilterSimulation extends Simulation {

    private final GatlingCluster cluster = GatlingCluster.start(2_000);

    {
        HttpProtocolBuilder protocol = http.baseUrl(cluster.gatewayUrl()).contentTypeHeader("application/json")
                .acceptHeader("application/json").shareConnections();
        ScenarioBuilder filter = scenario("filter at " + cluster.nodeCount() + " nodes")
                .feed(cluster.pods())
                .exec(http("create pod (API server)").post(cluster.apiUrl() + "/api/v1/namespaces/#{namespace}/pods")
                        .body(StringBody("#{admittedManifest}"))
                        .check(status().is(201), bodyString().saveAs("created")))
                .exitHereIfFailed()
                .exec(http("filter").post("/filter")
                        .body(StringBody(session -> cluster.filterArgs(session.getString("created"))))
                        .check(status().is(200), jsonPath("$.Error").is("")));
        int rate = GatlingCluster.rate(30);
        setUp(filter.injectOpen(
                rampUsersPerSec(1).to(rate).during(GatlingCluster.warmup()),
                constantUsersPerSec(rate).during(GatlingCluster.steady())).protocols(protocol))
                .assertions(details("filter").failedRequests().percent().lte(1.0),
                        global().failedRequests().percent().lte(1.0));
    }

    @Override
    public void after() {
        cluster.close();
    }
}
