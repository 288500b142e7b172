package io.vgpu.gateway.core.webhook;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class JsonPointerTest {

    @ParameterizedTest(name = "\"{0}\" → \"{1}\"")
    @CsvSource({
            "nvidia.com/gpucores,nvidia.com~1gpucores",
            "a~b,a~0b",
            "~/,~0~1",
            "/~1,~1~01",
            "plain,plain",
            "'',''",
    })
    void escapesTildeBeforeSlash(String token, String escaped) {
        assertThat(JsonPointer.escape(token)).isEqualTo(escaped);
    }

    @Test
    void joinsEscapedTokens() {
        assertThat(JsonPointer.of("spec", "containers", 0, "resources", "limits", "nvidia.com/gpucores"))
                .isEqualTo("/spec/containers/0/resources/limits/nvidia.com~1gpucores");
    }
}
