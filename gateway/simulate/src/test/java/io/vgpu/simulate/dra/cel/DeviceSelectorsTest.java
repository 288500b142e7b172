package io.vgpu.simulate.dra.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The CEL environment of spec §2 on cel-java: the six GPU examples, the library functions, errors and limits. */
class DeviceSelectorsTest {

    private static final String D = "vgpu.example.com";
    private static final DeviceSelectors SELECTORS = new DeviceSelectors();

    private static Device a100() {
        return new DeviceBuilder().withName("gpu-0").withAllowMultipleAllocations(true)
                .addToAttributes("productName", new DeviceAttributeBuilder().withString("NVIDIA A100-SXM4-80GB").build())
                .addToAttributes("uuid", new DeviceAttributeBuilder().withString("GPU-9f1c2a3b-0000-1111-2222-333344445555").build())
                .addToAttributes("index", new DeviceAttributeBuilder().withInt(0L).build())
                .addToAttributes("numa", new DeviceAttributeBuilder().withInt(1L).build())
                .addToAttributes("cudaComputeCapability", new DeviceAttributeBuilder().withVersion("8.6.0").build())
                .addToAttributes("resource.kubernetes.io/pcieRoot", new DeviceAttributeBuilder().withString("pci0000:00").build())
                .addToAttributes("type", new DeviceAttributeBuilder().withString("vgpu").build())
                .addToCapacity("memory", new DeviceCapacityBuilder().withValue(new Quantity("80Gi")).build())
                .build();
    }

    private boolean eval(String expression) throws SelectorException {
        return SELECTORS.matches(expression, DeviceInput.of(D, a100()));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            device.capacity['vgpu.example.com'].memory.compareTo(quantity('20Gi')) >= 0                                   | true
            device.capacity['vgpu.example.com'].memory.compareTo(quantity('81Gi')) >= 0                                   | false
            device.attributes['vgpu.example.com'].productName.startsWith('NVIDIA A100')                                   | true
            device.attributes['vgpu.example.com'].productName.startsWith('NVIDIA H100')                                   | false
            device.attributes['vgpu.example.com'].uuid == 'GPU-9f1c2a3b-0000-1111-2222-333344445555'                      | true
            'index' in device.attributes['vgpu.example.com'] && device.attributes['vgpu.example.com'].index == 0           | true
            'index' in device.attributes['other.example.com'] && device.attributes['other.example.com'].index == 0         | false
            cel.bind(a, device.attributes['vgpu.example.com'], 'numa' in a && a.numa == 1)                                | true
            cel.bind(a, device.attributes['vgpu.example.com'], 'numa' in a && a.numa == 0)                                | false
            device.attributes['vgpu.example.com'].cudaComputeCapability.isGreaterThan(semver('8.0.0')) && device.allowMultipleAllocations | true
            device.attributes['vgpu.example.com'].cudaComputeCapability.isGreaterThan(semver('9.0.0')) && device.allowMultipleAllocations | false
            device.attributes['resource.kubernetes.io'].pcieRoot == 'pci0000:00'                                          | true
            'vgpu.example.com' in device.attributes && !('other.example.com' in device.attributes)                      | true
            device.attributes['other.example.com'].size() == 0                                                         | true
            device.driver == 'vgpu.example.com' && device.attributes['vgpu.example.com'].type == 'vgpu'                    | true
            """)
    void specExamples(String expression, boolean expected) throws SelectorException {
        assertThat(eval(expression)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            quantity('1Gi') == quantity('1073741824')                          | true
            isQuantity('1.5Gi') && !isQuantity('1.5 Gi') && !isQuantity('Gi')   | true
            quantity('1Gi').isGreaterThan(quantity('1000Mi'))                  | true
            quantity('500m').isLessThan(quantity('1'))                         | true
            quantity('1k').add(quantity('24')).compareTo(quantity('1024')) == 0 | true
            quantity('2').add(3) == quantity('5')                              | true
            quantity('2').sub(quantity('3')).sign() == -1                      | true
            quantity('5').sub(5).sign() == 0                                   | true
            quantity('1.5').isInteger() == false && quantity('2k').isInteger() | true
            quantity('2k').asInteger() == 2000                                 | true
            quantity('250m').asApproximateFloat() == 0.25                      | true
            semver('1.2.3').major() == 1 && semver('1.2.3').minor() == 2 && semver('1.2.3').patch() == 3 | true
            semver('1.2.3-alpha').isLessThan(semver('1.2.3'))                  | true
            semver('1.10.0').compareTo(semver('1.9.0')) == 1                   | true
            semver('v1.2', true) == semver('1.2.0')                            | true
            isSemver('1.2.3') && !isSemver('1.2') && isSemver('v01.2', true)   | true
            'NVIDIA A100'.lowerAscii().contains('a100') && 'a,b'.split(',').size() == 2 | true
            device.attributes['vgpu.example.com'].productName.matches('^NVIDIA A[0-9]+') | true
            """)
    void kubernetesLibrariesAndStringFunctions(String expression, boolean expected) throws SelectorException {
        assertThat(eval(expression)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            device.attributes['vgpu.example.com'].productName.startsWith(           | CEL compile error: ERROR: <input>:1:
            device.attributes['vgpu.example.com'].nope == 1                         | CEL runtime error: evaluation error at <input>:37: key 'nope' is not present in map.
            device.attributes['other.example.com'].index == 0                       | CEL runtime error:
            device.nope                                                             | CEL compile error: ERROR: <input>:1:7: undefined field 'nope'
            device.driver                                                           | CEL compile error: must evaluate to bool or the unknown type, not string
            quantity('x').sign() == 0                                               | CEL runtime error: not a quantity: 'x'
            quantity('1.5').asInteger() == 1                                        | CEL runtime error: cannot convert quantity 1500m to a 64-bit integer
            semver('1.2') == semver('1.2.0')                                        | CEL runtime error: invalid semantic version '1.2'
            device.attributes['vgpu.example.com'].productName.matches('[')          | CEL runtime error:
            device.attributes['vgpu.example.com'].productName                       | CEL runtime error: result of type String could not be converted to bool
            undeclared == 1                                                         | CEL compile error: ERROR: <input>:1:1: undeclared reference to 'undeclared'
            """)
    void malformedOrFailingExpressionsGiveAClearError(String expression, String messageStart) {
        assertThatThrownBy(() -> eval(expression)).isInstanceOf(SelectorException.class).hasMessageStartingWith(messageStart.strip());
    }

    @Test
    void anExpressionOverTenKibibytesIsRefusedBeforeCompiling() {
        String longest = "true" + " && true".repeat((DeviceSelectors.MAX_EXPRESSION_BYTES - 4) / 8);
        String tooLong = longest + " && true";

        assertThatThrownBy(() -> SELECTORS.validate(tooLong)).isInstanceOf(SelectorException.class)
                .hasMessage("CEL compile error: expression is 10244 bytes long, longer than the limit of 10240");
    }

    @Test
    void theCostLimitStopsAnExpensiveEvaluationWithAClearError() {
        // 100 x 100 x 100 iterations, each charging at least one unit: far past 1,000,000
        String hundred = IntStream.range(0, 100).mapToObj(Integer::toString).collect(Collectors.joining(",", "[", "]"));
        String expensive = hundred + ".all(x, " + hundred + ".all(y, " + hundred + ".all(z, x + y + z >= 0)))";

        assertThatThrownBy(() -> eval(expensive)).isInstanceOf(SelectorException.class)
                .hasMessageStartingWith("CEL runtime error: operation cancelled: actual cost limit exceeded: more than 1000000 units");
    }

    @Test
    void aCheapComprehensionStaysUnderTheLimit() throws SelectorException {
        String hundred = IntStream.range(0, 100).mapToObj(Integer::toString).collect(Collectors.joining(",", "[", "]"));

        assertThat(eval(hundred + ".all(x, " + hundred + ".all(y, x + y >= 0))")).isTrue();
    }

    @Test
    void theCostModelChargesUnitsAsCelGoDoes() throws SelectorException {
        // device (1) .attributes (1) ['vgpu.example.com'] index call (1 + ceil(0.1 x (1 domain + 16 chars)) = 3)
        // .index (1) == 0 (1 + 0) -> 7 units; a limit of 6 stops it, a limit of 7 lets it through
        String expression = "device.attributes['vgpu.example.com'].index == 0";
        DeviceInput device = DeviceInput.of(D, a100());

        assertThat(new DeviceSelectors(7).matches(expression, device)).isTrue();
        assertThatThrownBy(() -> new DeviceSelectors(6).matches(expression, device))
                .hasMessageContaining("actual cost limit exceeded");
    }

    @Test
    void anInvalidVersionAttributeIsAnErrorForThatDevice() {
        Device bad = new DeviceBuilder(a100()).addToAttributes("driverVersion",
                new DeviceAttributeBuilder().withVersion("550.54").build()).build();

        assertThatThrownBy(() -> DeviceInput.of(D, bad)).isInstanceOf(SelectorException.class)
                .hasMessageStartingWith("attribute driverVersion: parse semantic version");
    }
}
