package io.vgpu.gateway.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/** Kubernetes' name and UID rules, as the API server applies them (apimachinery's validation tests). */
class KubeIdentityTest {

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"a", "0", "pod-1", "a.b", "a-b.c-d.e", "1.2.3.4", "ab-cd", "x123"})
    void subdomainsThatAreValid(String name) {
        assertThat(KubeIdentity.subdomainProblem(name)).isNull();
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"", "A", "a_b", "-a", "a-", ".a", "a.", "a..b", "a b", "a/b", "..", ".", "pöd", "a\u0000",
        "a.-b", "a-.b", "ａ"})
    void subdomainsThatAreNot(String name) {
        assertThat(KubeIdentity.subdomainProblem(name)).contains("RFC 1123 subdomain");
    }

    @Test
    void subdomainLengthIsBoundedAsAWholeNotPerPart() {
        String sixtyFour = "a".repeat(64);
        assertThat(KubeIdentity.subdomainProblem(sixtyFour + "." + sixtyFour)).isNull();
        assertThat(KubeIdentity.subdomainProblem("a".repeat(253))).isNull();
        assertThat(KubeIdentity.subdomainProblem("a".repeat(254))).isEqualTo("must be no more than 253 characters");
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"a", "default", "kube-system", "0", "a1-b2"})
    void labelsThatAreValid(String name) {
        assertThat(KubeIdentity.labelProblem(name)).isNull();
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"", "a.b", "A", "-a", "a-", "a_b", "a/b", "ns?x"})
    void labelsThatAreNot(String name) {
        assertThat(KubeIdentity.labelProblem(name)).contains("RFC 1123 label");
    }

    @Test
    void labelLengthIsBounded() {
        assertThat(KubeIdentity.labelProblem("n".repeat(63))).isNull();
        assertThat(KubeIdentity.labelProblem("n".repeat(64))).isEqualTo("must be no more than 63 characters");
        assertThat(KubeIdentity.labelProblem(null)).contains("RFC 1123 label");
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"0f8fad5b-d9cb-469f-a165-70867728950e", "7C9E6679-7425-40DE-944B-E07FC1F90AE7",
        "00000000-0000-0000-0000-000000000000"})
    void uidsThatAreValid(String uid) {
        assertThat(KubeIdentity.uidProblem(uid)).isNull();
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"u-1", "0f8fad5b-d9cb-469f-a165-70867728950", "0f8fad5b-d9cb-469f-a165-70867728950e0",
        "0f8fad5bd-9cb-469f-a165-70867728950e", "0f8fad5g-d9cb-469f-a165-70867728950e",
        "0f8fad5b_d9cb_469f_a165_70867728950e", "../fad5b-d9cb-469f-a165-70867728950e",
        "٠f8fad5b-d9cb-469f-a165-70867728950e"})
    void uidsThatAreNot(String uid) {
        assertThat(KubeIdentity.uidProblem(uid)).startsWith("is not a Kubernetes UID");
    }

    @Test
    void anEmptyUidIsSaidToBeEmpty() {
        assertThat(KubeIdentity.uidProblem("")).isEqualTo("is empty");
        assertThat(KubeIdentity.uidProblem(null)).isEqualTo("is empty");
    }

    @Test
    void aPodsIdentityNamesTheFirstBadFieldInTheCallersWords() {
        String uid = "0f8fad5b-d9cb-469f-a165-70867728950e";
        assertThat(KubeIdentity.podProblem("NS", "ns", "Name", "p", "UID", uid)).isNull();
        assertThat(KubeIdentity.podProblem("NS", "N_S", "Name", "P", "UID", "")).startsWith("NS \"N_S\": a lowercase");
        assertThat(KubeIdentity.podProblem("NS", "ns", "Name", "P", "UID", "")).startsWith("Name \"P\": a lowercase");
        assertThat(KubeIdentity.podProblem("NS", "ns", "Name", "p", "UID", ""))
                .isEqualTo("UID is empty; the pod's UID is needed");
        assertThat(KubeIdentity.podProblem("NS", "ns", "Name", "p", "UID", "u-1"))
                .startsWith("UID \"u-1\" is not a Kubernetes UID");
    }

    @Test
    void quotedValuesAreEscapedAndCut() {
        assertThat(KubeIdentity.quote("a\"b\\c\n")).isEqualTo("\"a\\\"b\\\\c\\u000a\"");
        assertThat(KubeIdentity.quote("x".repeat(100))).isEqualTo("\"" + "x".repeat(80) + "\"… (100 characters)");
    }
}
