package io.vgpu.state.codec;

import org.junit.jupiter.api.Test;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThatCode;

/**
 * Every decoder answers arbitrary text with a value, never an exception: seeded random strings over
 * the characters the formats care about, plus mutations (truncations, insertions) of valid samples.
 */
class CodecRobustnessTest {

    private static final String ALPHABET = "0123456789-+.,:;_ TZtfe\"[]{}nul\\x9é";
    private static final List<String> SAMPLES = List.of(
            "[{\"id\":\"GPU-0\",\"index\":1,\"count\":10,\"devmem\":8192,\"migProfiles\":[{\"name\":\"1g\",\"placements\":[{\"start\":1}]}],\"health\":true}]",
            "[{\"uuid\":\"GPU-0\",\"score\":{\"GPU-1\":100}}]",
            "GPU-ebe7,10,7680,100,NVIDIA-Tesla P4,0,true,1,hami-core:",
            ";GPU-a,NVIDIA,1000,30:;GPU-b,NVIDIA,2000,0:GPU-c,NVIDIA,2000,0:;",
            "2026-08-01T14:00:00+08:00,ns,pod-a",
            "Requesting_2026-08-01 14:00:00",
            "1h2m3.5s");
    private static final List<Function<String, Decoded<?>>> DECODERS = List.of(
            NodeRegisterCodec::decode,
            NodeRegisterCodec::decodePairScores,
            NodeRegisterCodec::decodeLegacy,
            PodDevicesCodec::decode,
            PodDevicesCodec::decodeContainer,
            PodDevicesCodec::popNext,
            NodeLockCodec::parse,
            s -> HandshakeCodec.requestedAt(s, ZoneId.of("Europe/Berlin")),
            GoDuration::parse);

    @Test
    void decodersNeverThrow() {
        Random random = new Random(20260801L);
        List<String> inputs = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            inputs.add(randomText(random, random.nextInt(40)));
        }
        for (String sample : SAMPLES) {
            for (int cut = 0; cut <= sample.length(); cut++) {
                inputs.add(sample.substring(0, cut));
            }
            for (int i = 0; i < 200; i++) {
                int at = random.nextInt(sample.length() + 1);
                inputs.add(sample.substring(0, at) + randomText(random, 1 + random.nextInt(3)) + sample.substring(at));
            }
        }
        for (String input : inputs) {
            for (Function<String, Decoded<?>> decoder : DECODERS) {
                assertThatCode(() -> decoder.apply(input)).as("decoding %s", input).doesNotThrowAnyException();
            }
        }
    }

    private static String randomText(Random random, int length) {
        StringBuilder out = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            out.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return out.toString();
    }
}
