package io.vgpu.loadtest.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** The driver applies the webhook's JSONPatch as the API server would. */
class JsonPatchTest {

    static Stream<Arguments> patches() {
        return Stream.of(
                arguments(Named.of("replace a member", "{\"spec\":{\"schedulerName\":\"default-scheduler\"}}"),
                        "[{\"op\":\"replace\",\"path\":\"/spec/schedulerName\",\"value\":\"hami-scheduler\"}]",
                        "{\"spec\":{\"schedulerName\":\"hami-scheduler\"}}"),
                arguments(Named.of("add a member with an escaped name", "{\"metadata\":{\"annotations\":{}}}"),
                        "[{\"op\":\"add\",\"path\":\"/metadata/annotations/hami.io~1vgpu-node\",\"value\":\"n1\"}]",
                        "{\"metadata\":{\"annotations\":{\"hami.io/vgpu-node\":\"n1\"}}}"),
                arguments(Named.of("append, insert and remove array elements", "{\"env\":[{\"n\":1},{\"n\":3}]}"),
                        "[{\"op\":\"add\",\"path\":\"/env/-\",\"value\":{\"n\":4}},"
                                + "{\"op\":\"add\",\"path\":\"/env/1\",\"value\":{\"n\":2}},"
                                + "{\"op\":\"remove\",\"path\":\"/env/0\"}]",
                        "{\"env\":[{\"n\":2},{\"n\":3},{\"n\":4}]}"));
    }

    @ParameterizedTest
    @MethodSource("patches")
    void appliesTheOperationsInOrder(String document, String patch, String expected) throws IOException {
        JsonNode target = GatewayHttp.JSON.readTree(document);

        JsonPatch.apply(target, GatewayHttp.JSON.readTree(patch));

        assertThat(target).isEqualTo(GatewayHttp.JSON.readTree(expected));
    }

    @ParameterizedTest
    @MethodSource("badPatches")
    void refusesPathsThatDoNotResolve(String patch) throws IOException {
        JsonNode target = GatewayHttp.JSON.readTree("{\"spec\":{\"containers\":[]}}");

        assertThatThrownBy(() -> JsonPatch.apply(target, GatewayHttp.JSON.readTree(patch)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    static Stream<Arguments> badPatches() {
        return Stream.of(
                arguments(Named.of("missing parent", "[{\"op\":\"add\",\"path\":\"/status/phase\",\"value\":1}]")),
                arguments(Named.of("array index out of range",
                        "[{\"op\":\"remove\",\"path\":\"/spec/containers/0\"}]")),
                arguments(Named.of("unknown op", "[{\"op\":\"move\",\"path\":\"/spec\"}]")));
    }
}
