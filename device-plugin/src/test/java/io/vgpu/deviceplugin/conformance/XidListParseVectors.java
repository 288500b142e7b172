package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.deviceplugin.core.health.XidPolicy;

import java.util.ArrayList;
import java.util.List;

/** {@code xid_list_parse}: one env value → XID set. */
public final class XidListParseVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        List<Long> want = new ArrayList<>();
        vector.path("expected").path("xids").forEach(n -> want.add(n.asLong()));
        return new Checks().expect("xids", want,
                new ArrayList<>(XidPolicy.parseList(vector.path("input").path("value").asText()))).list();
    }
}
