package io.vgpu.state.codec;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DecodedTest {

    @Test
    void okCarriesItsValueAndMapsIt() {
        Decoded<Integer> ok = Decoded.ok(20);

        assertThat(ok.isOk()).isTrue();
        assertThat(ok.value()).isEqualTo(20);
        assertThat(ok.map(v -> v + 1).value()).isEqualTo(21);
        assertThat(ok.flatMap(v -> Decoded.<String>err("no " + v)).error()).isEqualTo("no 20");
        assertThat(ok.orElse(0)).isEqualTo(20);
        assertThatThrownBy(ok::error).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void errCarriesItsMessageThroughMapAndFlatMap() {
        Decoded<Integer> err = Decoded.err("bad");

        assertThat(err.isOk()).isFalse();
        assertThat(err.error()).isEqualTo("bad");
        assertThat(err.map(v -> v + 1).error()).isEqualTo("bad");
        assertThat(err.flatMap(v -> Decoded.ok("x")).error()).isEqualTo("bad");
        assertThat(err.orElse(7)).isEqualTo(7);
        assertThatThrownBy(err::value).isInstanceOf(IllegalStateException.class).hasMessageContaining("bad");
    }

    @Test
    void errRequiresAMessage() {
        assertThatThrownBy(() -> Decoded.err(null)).isInstanceOf(NullPointerException.class);
    }
}
