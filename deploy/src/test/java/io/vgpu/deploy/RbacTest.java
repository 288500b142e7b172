package io.vgpu.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Least privilege, per component: exactly the verbs each app uses (listed and justified in
 * docs/install.md), bound to the service account its pods run as; kube-scheduler gets Kubernetes' own
 * roles for a scheduler plus its Leases.
 */
class RbacTest {

    /** resource (group/resource) → verbs of a role's rules; names-restricted rules are marked with their names. */
    static Map<String, TreeSet<String>> rules(JsonNode role) {
        Map<String, TreeSet<String>> out = new TreeMap<>();
        for (JsonNode rule : role.path("rules")) {
            for (JsonNode group : rule.path("apiGroups")) {
                for (JsonNode resource : rule.path("resources")) {
                    String key = group.asText() + "/" + resource.asText()
                            + (rule.has("resourceNames") ? texts(rule.path("resourceNames")).toString() : "");
                    rule.path("verbs").forEach(v -> out.computeIfAbsent(key, k -> new TreeSet<>()).add(v.asText()));
                }
            }
        }
        return out;
    }

    static final Map<String, TreeSet<String>> GATEWAY = Map.of(
            "/nodes", new TreeSet<>(List.of("get", "list", "watch", "patch")),
            "/pods", new TreeSet<>(List.of("get", "list", "watch", "patch")),
            "/pods/binding", new TreeSet<>(List.of("create")),
            "/events", new TreeSet<>(List.of("create")),
            "/resourcequotas", new TreeSet<>(List.of("list", "watch")),
            "/namespaces", new TreeSet<>(List.of("list", "watch")));

    /** DRA mode adds the ResourceClaimTemplates of translated pods (made, checked, swept when unused). */
    static final Map<String, TreeSet<String>> GATEWAY_DRA = Map.of(
            "resource.k8s.io/resourceclaimtemplates", new TreeSet<>(List.of("create", "get", "list", "delete")));

    static final Map<String, TreeSet<String>> DEVICE_PLUGIN = Map.of(
            "/nodes", new TreeSet<>(List.of("get", "list", "watch", "patch")),
            "/pods", new TreeSet<>(List.of("get", "list", "watch", "patch")),
            "/events", new TreeSet<>(List.of("create")));

    /** DRA mode adds its slices (written and, when leaving DRA mode, deleted) and reads claims (a switch back waits for them). */
    static final Map<String, TreeSet<String>> DRA = Map.of(
            "resource.k8s.io/resourceslices", new TreeSet<>(List.of("get", "list", "watch", "create", "update", "patch", "delete")),
            "resource.k8s.io/resourceclaims", new TreeSet<>(List.of("get", "list", "watch")));

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, mode = EnumSource.Mode.EXCLUDE, names = "DEVICE_PLUGIN_ONLY")
    void gatewayHasExactlyTheVerbsItUses(ValueSet set) {
        Rendered r = Helm.template(set);
        JsonNode role = r.one("ClusterRole", Names.SCHEDULER + "-gateway");
        Map<String, TreeSet<String>> expected = new TreeMap<>(GATEWAY);
        if (set.dra()) {
            expected.putAll(GATEWAY_DRA);
        }
        assertThat(rules(role)).isEqualTo(expected);
        assertBound(r, "ClusterRoleBinding", Names.SCHEDULER + "-gateway", "ClusterRole", Names.SCHEDULER + "-gateway",
                serviceAccount(r.one("StatefulSet", Names.SCHEDULER)));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ValueSet.class)
    void devicePluginHasExactlyTheVerbsItUses(ValueSet set) {
        Rendered r = Helm.template(set);
        Map<String, TreeSet<String>> expected = new TreeMap<>(DEVICE_PLUGIN);
        if (set.dra()) {
            expected.putAll(DRA);
        }
        assertThat(rules(r.one("ClusterRole", Names.DEVICE_PLUGIN))).isEqualTo(expected);
        assertBound(r, "ClusterRoleBinding", Names.DEVICE_PLUGIN, "ClusterRole", Names.DEVICE_PLUGIN,
                serviceAccount(r.one("DaemonSet", Names.DEVICE_PLUGIN)));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, mode = EnumSource.Mode.EXCLUDE, names = "DEVICE_PLUGIN_ONLY")
    void kubeSchedulerGetsTheSchedulerRolesAndItsOwnLeasesOnly(ValueSet set) {
        Rendered r = Helm.template(set);
        String sa = serviceAccount(r.one("StatefulSet", Names.SCHEDULER));
        assertBound(r, "ClusterRoleBinding", Names.SCHEDULER + "-kube-scheduler", "ClusterRole", "system:kube-scheduler", sa);
        assertBound(r, "ClusterRoleBinding", Names.SCHEDULER + "-volume-scheduler", "ClusterRole", "system:volume-scheduler", sa);
        assertBound(r, "RoleBinding", Names.SCHEDULER + "-authentication-reader", "Role",
                "extension-apiserver-authentication-reader", sa);
        assertThat(r.one("RoleBinding", Names.SCHEDULER + "-authentication-reader").path("metadata").path("namespace")
                .asText()).isEqualTo("kube-system");
        List<String> names = List.of(Pods.env(GatewayEnvTest.gateway(r)).get("VGPU_SCHEDULER_NAMES").split(","));
        Map<String, TreeSet<String>> leases = rules(r.one("Role", Names.SCHEDULER + "-leases"));
        assertThat(leases).containsOnlyKeys("coordination.k8s.io/leases", "coordination.k8s.io/leases" + names);
        assertThat(leases.get("coordination.k8s.io/leases")).containsExactly("create");
        assertThat(leases.get("coordination.k8s.io/leases" + names)).containsExactly("get", "update");
        assertBound(r, "RoleBinding", Names.SCHEDULER + "-leases", "Role", Names.SCHEDULER + "-leases", sa);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ValueSet.class)
    void noRuleOfTheChartUsesWildcardsOrDeletesAnythingButSlicesAndClaimTemplates(ValueSet set) {
        Rendered r = Helm.template(set);
        List<JsonNode> roles = new ArrayList<>(r.all("ClusterRole"));
        roles.addAll(r.all("Role"));
        assertThat(roles).isNotEmpty();
        for (JsonNode role : roles) {
            rules(role).forEach((resource, verbs) -> {
                assertThat(resource).as(role.path("metadata").path("name").asText()).doesNotContain("*");
                assertThat(verbs).as(resource).doesNotContain("*", "deletecollection", "escalate", "bind", "impersonate");
                if (!resource.equals("resource.k8s.io/resourceslices")
                        && !resource.equals("resource.k8s.io/resourceclaimtemplates")) {
                    // the node agent deletes only its own ResourceSlices (leaving DRA mode, a duplicate slice), the
                    // gateway only its own ResourceClaimTemplates (unused for an hour)
                    assertThat(verbs).as(resource).doesNotContain("delete");
                }
            });
        }
    }

    @Test
    void deviceOnlyInstallGrantsNothingToASchedulerAccount() {
        Rendered r = Helm.template(ValueSet.DEVICE_PLUGIN_ONLY);
        assertThat(r.all("ClusterRole")).extracting(o -> o.path("metadata").path("name").asText())
                .containsExactly(Names.DEVICE_PLUGIN);
        assertThat(r.all("Role")).isEmpty();
        assertThat(r.all("RoleBinding")).isEmpty();
    }

    static String serviceAccount(JsonNode workload) {
        String sa = Pods.podSpec(workload).path("serviceAccountName").asText();
        assertThat(sa).isNotEmpty();
        return sa;
    }

    static void assertBound(Rendered r, String bindingKind, String binding, String roleKind, String role, String sa) {
        JsonNode b = r.one(bindingKind, binding);
        assertThat(b.path("roleRef").path("kind").asText()).isEqualTo(roleKind);
        assertThat(b.path("roleRef").path("name").asText()).isEqualTo(role);
        assertThat(b.path("subjects")).hasSize(1);
        JsonNode subject = b.path("subjects").get(0);
        assertThat(subject.path("kind").asText()).isEqualTo("ServiceAccount");
        assertThat(subject.path("name").asText()).isEqualTo(sa);
        assertThat(subject.path("namespace").asText()).isEqualTo(ValueSet.NAMESPACE);
        assertThat(r.find("ServiceAccount", sa)).as("ServiceAccount " + sa).isPresent();
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(v -> out.add(v.asText()));
        return out;
    }
}
