package io.vgpu.deviceplugin.kube;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.vgpu.deviceplugin.core.monitor.MonitoredPod;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The monitor's view of a DRA pod: which claim requests each container uses, resolved to claim names. */
class PodViewsClaimsTest {

    @Test
    void resolvesDirectTemplateAndExtendedResourceClaimsPerContainer() {
        Pod pod = new KubernetesSerialization().unmarshal("""
                {"apiVersion":"v1","kind":"Pod","metadata":{"namespace":"team","name":"p1","uid":"u1"},
                 "spec":{"nodeName":"node-a",
                   "resourceClaims":[{"name":"direct","resourceClaimName":"c1"},{"name":"tpl","resourceClaimTemplateName":"t"},
                                     {"name":"pending","resourceClaimTemplateName":"t"}],
                   "initContainers":[{"name":"init","resources":{"claims":[{"name":"tpl","request":"gpu"}]}}],
                   "containers":[{"name":"main","resources":{"claims":[{"name":"direct"},{"name":"pending"}]}},
                                 {"name":"legacy"}]},
                 "status":{"resourceClaimStatuses":[{"name":"tpl","resourceClaimName":"p1-tpl-abcde"},{"name":"pending"}],
                   "extendedResourceClaimStatus":{"resourceClaimName":"p1-extended-resources-x",
                     "requestMappings":[{"containerName":"legacy","resourceName":"nvidia.com/gpu","requestName":"container-1-request-0"}]}}}
                """, Pod.class);

        MonitoredPod monitored = PodViews.monitored(pod);

        assertThat(monitored.claimUses()).containsExactly(
                new MonitoredPod.ClaimUse("init", "p1-tpl-abcde", "gpu"),
                new MonitoredPod.ClaimUse("main", "c1", ""),
                new MonitoredPod.ClaimUse("legacy", "p1-extended-resources-x", "container-1-request-0"));
        assertThat(monitored.containersUsing("c1", "any")).containsExactly("main");
        assertThat(monitored.containersUsing("p1-tpl-abcde", "gpu")).containsExactly("init");
        assertThat(monitored.containersUsing("p1-tpl-abcde", "other")).isEmpty();
    }
}
