package io.vgpu.gateway.core.filter;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class RejectionReasonsTest {

    @Test
    void countsEachNodeOnceUnderEveryReasonWordItsTextNames() {
        Map<String, String> failed = new LinkedHashMap<>();
        failed.put("a", "2/2 CardInsufficientMemory");
        failed.put("b", "1/2 CardInsufficientMemory, 1/2 CardInsufficientCore");
        failed.put("c", "3/4 CardTypeMismatch");

        assertThat(RejectionReasons.count(failed)).containsExactly(
                Map.entry("CardInsufficientCore", 1),
                Map.entry("CardInsufficientMemory", 2),
                Map.entry("CardTypeMismatch", 1));
    }

    @Test
    void aFixedTextStandsForItselfAndAnythingVariableBecomesOther() {
        Map<String, String> failed = new LinkedHashMap<>();
        failed.put("a", "node unregistered");
        failed.put("b", "node unregistered");
        failed.put("c", "ResourceQuotaNotFit");
        failed.put("d", "device GPU-1234 is unhealthy"); // digits: could be anything
        failed.put("e", "x".repeat(80));
        failed.put("f", "");

        assertThat(RejectionReasons.count(failed)).containsExactly(
                Map.entry(RejectionReasons.OTHER, 3),
                Map.entry("ResourceQuotaNotFit", 1),
                Map.entry("node unregistered", 2));
    }
}
