package io.vgpu.gateway.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vgpu.gateway.core.Container;
import io.vgpu.gateway.core.PodSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PodJsonTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();


    static JsonNode json(String s) throws IOException {
        return MAPPER.readTree(s.replace('\'', '"'));
    }

    static PodSpec decoded(PodJson.Result r) {
        assertThat(r).isInstanceOf(PodJson.Decoded.class);
        return ((PodJson.Decoded) r).pod();
    }

    @Test
    void keepsEveryEnvEntryInOrderSoThatPatchIndexesMatch() throws IOException {
        PodSpec pod = decoded(PodJson.decode(json("{'spec':{'containers':[{'name':'c','env':["
                + "{'name':'A','value':'1'},{'name':'S','valueFrom':{'secretKeyRef':{'name':'s','key':'k'}}},"
                + "{'name':'EMPTY'}]}]}}"), "ns", "", "uid"));
        assertThat(pod.containers().get(0).env()).containsExactly(new Container.EnvVar("A", "1"),
                new Container.EnvVar("S", null), new Container.EnvVar("EMPTY", null));
    }

    @Test
    void takesNamespaceNameAndUidFromTheReviewWhenThePodHasNone() throws IOException {
        PodSpec pod = decoded(PodJson.decode(json("{'metadata':{'generateName':'web-'},'spec':{'containers':[]}}"),
                "team-a", "", "review-uid"));
        assertThat(List.of(pod.namespace(), pod.name(), pod.uid())).containsExactly("team-a", "", "review-uid");
        PodSpec own = decoded(PodJson.decode(json("{'metadata':{'namespace':'x','name':'p','uid':'pod-uid'}}"),
                "team-a", "q", "review-uid"));
        assertThat(List.of(own.namespace(), own.name(), own.uid())).containsExactly("x", "p", "pod-uid");
    }

    @Test
    void readsTheFieldsTheCoreUses() throws IOException {
        PodSpec pod = decoded(PodJson.decode(json("{'metadata':{'labels':{'a':'b'},'annotations':{'k':'v'}},"
                + "'spec':{'schedulerName':'s','nodeName':'n','runtimeClassName':'nvidia',"
                + "'initContainers':[{'name':'i','securityContext':{'privileged':true}}],"
                + "'containers':[{'name':'c','resources':{'limits':{'nvidia.com/gpu':1,'memory':'1Gi'},"
                + "'requests':{'cpu':'500m'}},'securityContext':{'privileged':null}}]}}"), "", "", ""));
        assertThat(pod).isEqualTo(new PodSpec("", "", "", "s", "n", "nvidia", Map.of("k", "v"), Map.of("a", "b"),
                List.of(new Container("i", Map.of(), Map.of(), true, List.of())),
                List.of(new Container("c", Map.of("nvidia.com/gpu", "1", "memory", "1Gi"), Map.of("cpu", "500m"), false,
                        List.of()))));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "object is an array       | [1]                                                         | request.object: expected a Pod object",
        "metadata is a list       | {'metadata':[]}                                             | metadata: expected an object",
        "containers is an object  | {'spec':{'containers':{}}}                                  | spec.containers: expected an array",
        "container is a string    | {'spec':{'containers':['c']}}                               | spec.containers[0]: expected an object",
        "limit is a list          | {'spec':{'containers':[{'resources':{'limits':{'x':[]}}}]}} | spec.containers[0].resources.limits[\"x\"]: expected a quantity string or number",
        "privileged is text       | {'spec':{'initContainers':[{'securityContext':{'privileged':'yes'}}]}} | spec.initContainers[0].securityContext.privileged: expected a boolean",
        "env value is a number    | {'spec':{'containers':[{'env':[{'name':'A','value':1}]}]}}  | spec.containers[0].env[0].value: expected a string",
        "label is a number        | {'metadata':{'labels':{'a':1}}}                             | metadata.labels[\"a\"]: expected a string",
        "schedulerName is a bool  | {'spec':{'schedulerName':true}}                             | spec.schedulerName: expected a string"})
    void reportsTheFirstFieldOfTheWrongType(String name, String object, String message) throws IOException {
        assertThat(PodJson.decode(json(object), "", "", "")).isEqualTo(new PodJson.Undecodable(message));
    }

    @Test
    void anAbsentObjectIsUndecodable() {
        assertThat(PodJson.decode(null, "", "", "")).isInstanceOf(PodJson.Undecodable.class);
    }
}
