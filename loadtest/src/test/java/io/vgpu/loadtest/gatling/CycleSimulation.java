package io.vgpu.loadtest.gatling;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.bodyString;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.jsonPath;
import static io.gatling.javaapi.core.CoreDsl.rampUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

/**
 * (2) The whole cycle of one pod per virtual user, as the API server and kube-scheduler drive it:
 * <pre>
 *   POST /webhook ─► apply its JSONPatch ─► create the pod in the API server ─► POST /filter (NodeNames: every
 *   node) ─► POST /bind (the chosen node) ─► (simulated device plugin: bind-phase=success, lock released)
 * </pre>
 * Open arrival model, a ramp as warm-up, then a constant rate; asserts the error rate: an HTTP failure, or a filter
 * or bind that answers {@code Error}. A filter that chooses no node (a full cluster, or every reservation it tried
 * lost its race) is an answer, as for kube-scheduler, and its pod is not bound. The CI smoke run
 * ({@code ./mvnw verify}) runs this one briefly.
 */
public class CycleSimulation extends Simulation {

    private final GatlingCluster cluster = GatlingCluster.start(100);

    {
        HttpProtocolBuilder protocol = http.baseUrl(cluster.gatewayUrl()).contentTypeHeader("application/json")
                .acceptHeader("application/json").shareConnections();
        ScenarioBuilder cycle = scenario("webhook, filter, bind")
                .feed(cluster.pods())
                .exec(http("webhook").post("/webhook").body(StringBody("#{review}"))
                        .check(status().is(200), jsonPath("$.response.allowed").ofBoolean().is(true),
                                jsonPath("$.response.patch").optional().saveAs("patch")))
                .exitHereIfFailed()
                .exec(session -> session.set("pod", GatlingCluster.admitted(session.getString("manifest"),
                        session.contains("patch") ? session.getString("patch") : null)))
                .exec(http("create pod (API server)").post(cluster.apiUrl() + "/api/v1/namespaces/#{namespace}/pods")
                        .body(StringBody("#{pod}"))
                        .check(status().is(201), bodyString().saveAs("created"),
                                jsonPath("$.metadata.uid").saveAs("uid")))
                .exitHereIfFailed()
                .exec(http("filter").post("/filter")
                        .body(StringBody(session -> cluster.filterArgs(session.getString("created"))))
                        .check(status().is(200), jsonPath("$.Error").is(""),
                                jsonPath("$.NodeNames[0]").optional().saveAs("node")))
                .exitHereIfFailed()
                // no node chosen (the cluster is full, or every reservation lost its race): kube-scheduler would
                // re-queue the pod; it is an answer, not an error
                .doIf(session -> session.contains("node")).then(exec(http("bind").post("/bind")
                        .body(StringBody(session -> GatlingCluster.bindingArgs(session.getString("namespace"),
                                session.getString("name"), session.getString("uid"), session.getString("node"))))
                        .check(status().is(200), jsonPath("$.Error").is(""))));
        int rate = GatlingCluster.rate(40);
        setUp(cycle.injectOpen(
                rampUsersPerSec(1).to(rate).during(GatlingCluster.warmup()),
                constantUsersPerSec(rate).during(GatlingCluster.steady())).protocols(protocol))
                .assertions(global().failedRequests().percent().lte(1.0));
    }

    @Override
    public void after() {
        cluster.close();
    }
}
