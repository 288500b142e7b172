package io.vgpu.gateway.core.request;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

class QuantityTest {

    @ParameterizedTest(name = "\"{0}\" is the exact integer {1}")
    @CsvSource(delimiter = '|', value = {
            "0|0",
            "1|1",
            "100|100",
            "+5|5",
            "-3|-3",
            "007|7",
            "-0|0",
            "1.|1",
            "1k|1000",
            "1.5k|1500",
            "2M|2000000",
            "1e3|1000",
            "1E3|1000",
            "1e+3|1000",
            "1E|1000000000000000000",
            "1Ki|1024",
            "16Gi|17179869184",
            "1Ti|1099511627776",
            "999999999999999999|999999999999999999",
            "' 42 '|42",
            "Ki|0",
    })
    void exactIntegers(String text, long expected) {
        Quantity q = Quantity.parse(text);
        assertThat(q.isValid()).isTrue();
        assertThat(q.asInt64()).hasValue(expected);
        assertThat(q.value()).hasValue(expected);
    }

    @ParameterizedTest(name = "\"{0}\" is valid but not an exact int64 (Value = {1})")
    @CsvSource(delimiter = '|', value = {
            "500m|1",
            "1.5|2",
            "-1.5|-1",
            "1.0|1",
            "0.0|0",
            "1000m|1",
            "1e-3|1",
            "1n|1",
            "0.5Ki|512",
            "1Ei|1152921504606846976",
            "100Ti|109951162777600",
            "1234567890123456789|1234567890123456789",
            "1e19|9223372036854775807",
            "10E18|9223372036854775807",
            "1e2000000000|9223372036854775807",
            "-1e30|-9223372036854775808",
            "1e-2000000000|1",
            "1.0000000001|2",
    })
    void inexactQuantities(String text, long value) {
        Quantity q = Quantity.parse(text);
        assertThat(q.isValid()).isTrue();
        assertThat(q.asInt64()).isEmpty();
        assertThat(q.value()).hasValue(value);
    }

    @ParameterizedTest(name = "\"{0}\" is rejected: {1}")
    @CsvSource(delimiter = '|', value = {
            "''|" + Quantity.FORMAT_WRONG,
            "'  '|" + Quantity.FORMAT_WRONG,
            "abc|" + Quantity.FORMAT_WRONG,
            "1x|" + Quantity.FORMAT_WRONG,
            "1 2|" + Quantity.FORMAT_WRONG,
            "1.2.3|" + Quantity.FORMAT_WRONG,
            "1kk|" + Quantity.SUFFIX,
            "1e|" + Quantity.SUFFIX,
            "1m3|" + Quantity.SUFFIX,
            "1i|" + Quantity.SUFFIX,
            "--1|" + Quantity.SUFFIX,
            "1e99999999999999999999|" + Quantity.SUFFIX,
    })
    void invalidStringsAreErrorValues(String text, String reason) {
        Quantity q = Quantity.parse(text);
        assertThat(q).isEqualTo(new Quantity.Invalid(text, reason));
        assertThat(q.asInt64()).isEmpty();
        assertThat(q.value()).isEqualTo(OptionalLong.empty());
    }

    @ParameterizedTest(name = "NewQuantity({0}, BinarySI) is \"{1}\"")
    @CsvSource({"0,0", "1,1", "1023,1023", "1024,1Ki", "1536,1536", "2048,2Ki", "1048576,1Mi", "-1024,-1Ki",
            "3221225472,3Gi"})
    void binarySIFormatting(long n, String expected) {
        assertThat(Quantity.binarySI(n)).isEqualTo(expected);
        assertThat(Quantity.parse(expected).asInt64()).hasValue(n);
    }
}
