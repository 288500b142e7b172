package io.vgpu.simulate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JsonPatchTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String POD = "{\"metadata\":{\"name\":\"p\",\"annotations\":{\"a\":\"1\"}},"
            + "\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"1\"}}}]}}";

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "add a member             | [{\"op\":\"add\",\"path\":\"/spec/schedulerName\",\"value\":\"s\"}]                  | /spec/schedulerName                        | \"s\"",
        "add an escaped key       | [{\"op\":\"add\",\"path\":\"/metadata/annotations/x~1y~0z\",\"value\":\"v\"}]      | /metadata/annotations/x~1y~0z              | \"v\"",
        "replace a member         | [{\"op\":\"replace\",\"path\":\"/metadata/annotations/a\",\"value\":\"2\"}]        | /metadata/annotations/a                    | \"2\"",
        "remove a member          | [{\"op\":\"remove\",\"path\":\"/metadata/annotations/a\"}]                         | /metadata/annotations/a                    | ",
        "append to an array       | [{\"op\":\"add\",\"path\":\"/spec/containers/-\",\"value\":{\"name\":\"d\"}}]      | /spec/containers/1/name                    | \"d\"",
        "insert into an array     | [{\"op\":\"add\",\"path\":\"/spec/containers/0\",\"value\":{\"name\":\"i\"}}]      | /spec/containers/1/name                    | \"c\"",
        "set under an array index | [{\"op\":\"add\",\"path\":\"/spec/containers/0/resources/limits/nvidia.com~1gpumem\",\"value\":\"3000\"}] | /spec/containers/0/resources/limits/nvidia.com~1gpumem | \"3000\"",
    })
    void appliesTheOperation(String name, String patch, String pointer, String expected) throws Exception {
        ObjectNode pod = (ObjectNode) JSON.readTree(POD);
        ObjectNode patched = JsonPatch.apply(pod, JSON.readTree(patch));
        if (expected == null) {
            assertThat(patched.at(pointer).isMissingNode()).isTrue();
        } else {
            assertThat(patched.at(pointer)).isEqualTo(JSON.readTree(expected));
        }
        assertThat(pod).isEqualTo(JSON.readTree(POD)); // the input is not changed
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "replace a missing member  | [{\"op\":\"replace\",\"path\":\"/metadata/labels/x\",\"value\":\"v\"}]         | missing parent",
        "remove a missing member   | [{\"op\":\"remove\",\"path\":\"/metadata/annotations/nope\"}]                 | missing target",
        "add under a missing parent| [{\"op\":\"add\",\"path\":\"/metadata/labels/x\",\"value\":\"v\"}]            | missing parent",
        "unsupported op            | [{\"op\":\"move\",\"from\":\"/a\",\"path\":\"/metadata/b\"}]                 | unsupported op",
        "index out of range        | [{\"op\":\"replace\",\"path\":\"/spec/containers/3\",\"value\":{}}]           | index out of range",
        "bad index                 | [{\"op\":\"add\",\"path\":\"/spec/containers/01\",\"value\":{}}]              | bad array index",
        "add without a value       | [{\"op\":\"add\",\"path\":\"/spec/x\"}]                                        | missing value",
        "the root                  | [{\"op\":\"add\",\"path\":\"\",\"value\":{}}]                                  | document root",
        "not an array              | {\"op\":\"add\"}                                                                | must be an array",
    })
    void refusesWhatTheApiServerRefuses(String name, String patch, String message) throws Exception {
        ObjectNode pod = (ObjectNode) JSON.readTree(POD);
        assertThatThrownBy(() -> JsonPatch.apply(pod, JSON.readTree(patch)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
    }
}
