package io.vgpu.gateway.core.port;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** The fast two-decimal score format agrees with the exact BigDecimal rounding it replaced, value for value. */
class ScoreFormatTest {

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void agreesWithBigDecimalHalfEvenOnRandomScores(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < 200_000; i++) {
            float score = switch (i % 4) {
                case 0 -> (float) (random.nextDouble() * 30);             // the range node scores live in
                case 1 -> random.nextInt(-4000, 4000) / 8f;               // exact binary ties (x.125, x.375, ...)
                case 2 -> Float.intBitsToFloat(random.nextInt());          // anything a float can be
                default -> (float) (random.nextDouble() * 2e15 - 1e15);   // near the long-arithmetic bound
            };
            if (Float.isNaN(score) || Float.isInfinite(score)) {
                continue;
            }
            assertThat(SchedulerEvent.twoDecimals(score)).as("score %s", score)
                    .isEqualTo(new BigDecimal(score).setScale(2, RoundingMode.HALF_EVEN).toPlainString());
        }
    }
}
